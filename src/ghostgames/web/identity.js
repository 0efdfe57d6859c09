// Choosing a name: a guest name (kept while the token lives) or an account (name + password).

import { h } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { api, session } from "./net.js";
import { logOut } from "./settings.js";

/** A form that gets a token and restarts the connection with it; `compact` shows only the guest name. */
export function identityForm(connection, { compact = false } = {}) {
  const message = h("p", { class: "form-error", role: "alert" });
  const guestName = h("input", { name: "guest-name", maxlength: 24, required: true, autocomplete: "nickname",
    "aria-label": t("identity.name"), placeholder: t("identity.name") });
  const done = (answer) => {
    session.save(answer.token, answer.name);
    connection.restart();
  };
  const failed = (error) => {
    message.textContent = errorText(error);
  };
  const guest = h("form", { class: "guest-form", onsubmit: (event) => {
      event.preventDefault();
      api("/guest", { method: "POST", body: { name: guestName.value.trim() } }).then(done, failed);
    } },
    h("label", {}, h("span", {}, t("identity.guest_label")), guestName),
    h("button", { type: "submit", class: "primary" }, t("identity.enter")),
  );
  if (compact) return h("div", { class: "identity compact" }, guest, message);

  const accountName = h("input", { name: "account-name", maxlength: 24, autocomplete: "username",
    "aria-label": t("identity.name"), placeholder: t("identity.name") });
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password",
    "aria-label": t("identity.password"), placeholder: t("identity.password") });
  const account = (path) => () =>
    api(path, { method: "POST", body: { name: accountName.value.trim(), password: password.value } }).then(done, failed);
  const login = h("form", { class: "login-form", onsubmit: (event) => {
      event.preventDefault();
      account("/login")();
    } },
    h("span", {}, t("identity.account_label")), accountName, password,
    h("button", { type: "submit" }, t("identity.login")),
    h("button", { type: "button", onclick: account("/register") }, t("identity.register")),
  );
  return h("div", { class: "identity" }, guest, h("p", { class: "or" }, t("identity.or")), login, message);
}

/** Log out (the server forgets the token too when it can; see settings.js). */
export function logout(connection) {
  return logOut(connection);
}
