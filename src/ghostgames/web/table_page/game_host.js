// The game's own drawing in the middle of the page: its module is loaded by the game's name the first
// time the table arrives, then every update hands it the new view.

import { loadGameModule } from "../game_module.js";
import { clear, h } from "../dom.js";

/**
 * `ctx` is what the renderer may use (t, act, seatName, ...); `onLoaded` runs once the module is here
 * (parts that speak the game's words redraw), `onDrawn` after every update of the game's drawing.
 */
export function createGameHost(state, ctx, { onLoaded, onDrawn }) {
  const element = h("div", { class: "game-area" });
  let loading = null;

  async function draw() {
    const info = state.table();
    if (!info) return;
    if (!state.game) {
      // One import however many table messages arrive meanwhile.
      loading ||= loadGameModule(info.game).then((module) => {
        state.game = module;
        state.renderer = module.createRenderer(ctx);
        clear(element);
        element.append(state.renderer.element);
        onLoaded();
      });
      await loading;
    }
    if (state.view()) {
      state.renderer.element.hidden = false;
      state.renderer.update(state.view());
    } else {
      state.renderer.element.hidden = true;
    }
    onDrawn();
  }

  return { element, draw };
}
