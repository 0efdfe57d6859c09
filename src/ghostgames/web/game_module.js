// A game's browser module is found by the game's name: web/games/<name>.js, with the exports that
// games/README.md lists. Adding a game adds that file (and its i18n keys); nothing here names a game.

const GAME_NAME = /^[a-z][a-z0-9_]*$/; // a name from the server, never a path

export function loadGameModule(name) {
  if (!GAME_NAME.test(String(name))) return Promise.reject(new Error(`no game module for ${name}`));
  return import(`./games/${name}.js`);
}
