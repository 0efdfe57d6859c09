// Sending a command to the table ("/join", a move, a chat line) and retrying a move quietly when only the
// table's version moved on meanwhile.

/**
 * `banner` is hidden as each command goes out; `report(error)` says a refusal the retry could not cure
 * (other refusals reach the page's error handler, which says them).
 */
export function createCommands(connection, state, { banner, report }) {
  function command(text, { withVersion = true, retries = 2, version = undefined } = {}) {
    const msg = { type: "command", table: state.tableId, text };
    // Only a game move depends on the position it was chosen in: it carries the version drawn, so a move
    // made against an old board is refused as stale. Table commands (/leave, /resign, /option, chat) do
    // not, or every bot move landing meanwhile would refuse them.
    const isMove = (state.view()?.legal || []).includes(text.replace(/^\//, ""));
    if (withVersion && isMove && state.table()) msg.version = version ?? state.table().version;
    banner.hide();
    return connection.request(msg).catch((error) => {
      // Someone else (a bot setting up at the same moment) changed the table. The error carries the
      // fresh table; when the same action is still allowed there, send it again against that version
      // instead of troubling the player.
      if (error?.code !== "stale_version") return undefined; // shown by the error handler
      const action = text.replace(/^\//, "");
      const fresh = error?.fresh ?? state.message;
      if (retries > 0 && (fresh?.view?.legal || []).includes(action)) {
        return command(text, { withVersion, retries: retries - 1, version: fresh?.table?.version });
      }
      report(error);
      return undefined;
    });
  }
  /** A game action as the renderer names it ("move b2 n"). */
  const act = (actionText) => command(`/${actionText}`);
  return { command, act };
}
