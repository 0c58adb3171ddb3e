// Small progressive enhancement: completion of names as you type, the new-session pickers
// reloading the choices when the game, an option or the seat changes, and the session page
// refreshing itself when the session changes elsewhere. Everything works without it.
"use strict";

function currentWord(input) {
  const upto = input.value.slice(0, input.selectionStart ?? input.value.length);
  const start = Math.max(upto.lastIndexOf(" "), upto.lastIndexOf(",")) + 1;
  return { start, end: upto.length, word: upto.slice(start) };
}

function matches(words, typed) {
  if (!typed) return [];
  const lower = typed.toLowerCase();
  const parts = lower.split("-");
  // a word matches a beginning (al-do) or a beginning of each of its parts (al-do = alleyway-doorway)
  return words.filter((w) => {
    const l = w.toLowerCase();
    if (l.startsWith(lower)) return true;
    const wparts = l.split("-");
    return parts.length > 1 && parts.length <= wparts.length &&
      parts.every((p, i) => wparts[i].startsWith(p));
  }).filter((w) => w.toLowerCase() !== lower).slice(0, 8);
}

function attach(input, words) {
  const box = input.closest("form").querySelector(".suggest") || (() => {
    const div = document.createElement("div");
    div.className = "suggest";
    input.closest("form").appendChild(div);
    return div;
  })();
  const show = () => {
    const { start, end, word } = currentWord(input);
    box.replaceChildren();
    for (const w of matches(words, word)) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = w;
      b.addEventListener("click", () => {
        input.value = input.value.slice(0, start) + w + " " + input.value.slice(end).trimStart();
        const at = start + w.length + 1;
        input.focus();
        input.setSelectionRange(at, at);
        show();
      });
      box.appendChild(b);
    }
  };
  input.addEventListener("input", show);
  input.addEventListener("focus", show);
}

// a tap on a name (a word of the palette, a card or suspect of the board) types it in the box
function insertWord(word) {
  const input = document.getElementById("text");
  if (!input) return;
  const { start, end, word: typed } = currentWord(input);
  const keep = word.toLowerCase().startsWith(typed.toLowerCase()) ? start : end;
  const before = input.value.slice(0, keep);
  const sep = before && !before.endsWith(" ") ? " " : "";
  input.value = before + sep + word + " " + input.value.slice(end).trimStart();
  const at = (before + sep + word).length + 1;
  input.focus();
  input.setSelectionRange(at, at);
  input.dispatchEvent(new Event("input"));
}

// following a link to an entry (from the contradiction banner) opens its change forms
function openTarget() {
  const target = location.hash && document.getElementById(location.hash.slice(1));
  const details = target && target.querySelector("details");
  if (details) details.open = true;
}

// the session page asks the server for the session's version now and then; when another tab
// or the terminal changed it, the page reloads, unless the person is typing or changing an
// entry here: then a banner says so and the typed text stays until they choose to reload
const POLL_MS = 1500;
let leaving = false;  // a change of this page is on its way: its answer is the new page

function busy() {
  const box = document.getElementById("text");
  const typing = (box && box.value.trim() !== "") ||
    [...document.querySelectorAll("input[name=text]")].some((input) => input.value !== input.defaultValue);
  const open = document.querySelector(".entries details[open]");
  return typing || Boolean(open);
}

function watch(banner) {
  const shown = banner.dataset.version;
  let stopped = false;
  const check = async () => {
    if (stopped || leaving) return;
    if (document.visibilityState === "visible") {
      try {
        const answer = await fetch(banner.dataset.poll, { cache: "no-store" });
        if (answer.ok) {
          const { version } = await answer.json();
          if (String(version) !== shown) {
            if (!busy()) {
              stopped = true;
              location.replace(banner.querySelector("a").href);  // also from a refused POST's page
              return;
            }
            banner.hidden = false;
          }
        }
      } catch (error) {
        // the server is away (restarting): ask again later
      }
    }
    setTimeout(check, POLL_MS);
  };
  setTimeout(check, POLL_MS);
}

document.addEventListener("DOMContentLoaded", () => {
  openTarget();
  const changed = document.getElementById("changed");
  if (changed) watch(changed);
  window.addEventListener("hashchange", openTarget);
  // the words are sent once, on the entry box; the edit and insert boxes complete them too
  const main = document.querySelector("input[data-words]");
  const words = main ? JSON.parse(main.dataset.words) : [];
  document.querySelectorAll("input[data-words], input[data-complete]").forEach((input) => {
    attach(input, words);
  });
  document.querySelectorAll("[data-word]").forEach((el) => {
    el.addEventListener("click", () => insertWord(el.dataset.word));
  });
  // a pick of several cards counts what is ticked against what the setup needs
  document.querySelectorAll(".count[data-count]").forEach((count) => {
    const box = count.closest("p").nextElementSibling;  // the choices it counts
    const need = Number(count.dataset.count);
    const update = () => {
      const ticked = box.querySelectorAll("input[type=checkbox]:checked").length;
      count.textContent = `${ticked} of ${need} picked`;
      count.classList.toggle("done", ticked === need);
      count.classList.toggle("over", ticked > need);
    };
    box.addEventListener("change", update);
    update();
  });
  document.querySelectorAll("[data-autosubmit]").forEach((el) => {
    el.addEventListener("change", () => el.form.submit());
  });
  // a change form is sent once: a second tap while the server works would be refused as stale
  document.querySelectorAll("form[method=post]").forEach((form) => {
    form.addEventListener("submit", () => {
      leaving = true;
      setTimeout(() => form.querySelectorAll("button").forEach((b) => { b.disabled = true; }), 0);
    });
  });
});
