// Which tutorial lessons the learner has solved: kept in the browser (localStorage), and for an account
// also on the server (GET/POST /api/tutorial/progress), so a second browser knows it too. Guests keep it
// in the browser only.

import { api, session } from "./net.js";

const STORE_KEY = "ghostgames.tutorial";

function readLocal() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function writeLocal(data) {
  localStorage.setItem(STORE_KEY, JSON.stringify(data));
}

/** The solved lesson ids of a game (a Set). */
export function solved(game) {
  return new Set(readLocal()[game] || []);
}

/** Remember a solved lesson here, and on the server for an account (a failure there loses nothing here). */
export function markSolved(game, lesson, connection) {
  const data = readLocal();
  const list = new Set(data[game] || []);
  list.add(lesson);
  data[game] = [...list];
  writeLocal(data);
  if (session.token && connection?.user && !connection.user.guest) {
    api("/tutorial/progress", { method: "POST", body: { game, lessons: [lesson] } }).catch(() => {});
  }
}

/** Join what the account has stored with what this browser knows (both ways): call once a user is known. */
export async function syncWithAccount(connection) {
  if (!session.token || !connection?.user || connection.user.guest) return false;
  try {
    const stored = (await api("/tutorial/progress")).progress || {};
    const data = readLocal();
    for (const [game, lessons] of Object.entries(stored)) data[game] = [...new Set([...(data[game] || []), ...lessons])];
    writeLocal(data);
    for (const [game, lessons] of Object.entries(data)) {
      if (lessons.some((lesson) => !(stored[game] || []).includes(lesson))) {
        await api("/tutorial/progress", { method: "POST", body: { game, lessons } }).catch(() => {});
      }
    }
    return true;
  } catch {
    return false;
  }
}
