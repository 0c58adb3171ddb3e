// Small progressive enhancement: entries built by tapping chips (the tree the server sends:
// sleuth/web/taps.py), completion of names as you type, the new-session pickers reloading the
// choices when the game, an option or the seat changes, a grid of the setup filled by tapping
// names into cells, and the session page refreshing itself when the session changes
// elsewhere. Everything works without it: the entry box takes typed lines.
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
  const builder = document.getElementById("taps") ? tapBuilder(document.getElementById("taps")) : null;
  document.querySelectorAll("[data-word]").forEach((el) => {
    el.addEventListener("click", () => {
      if (!(builder && builder.tapWord(el.dataset.word))) insertWord(el.dataset.word);
    });
  });
  document.querySelectorAll("fieldset.picks.cols").forEach(tapGrid);
  dock();
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

// --- entries by tapping -------------------------------------------------------------------
// The tree: nodes {p: prompt, rows: [[heading, [[text, label, next]]]], end, multi}; node 0 is
// "complete", node 1 the start. A tap appends the chip's text to the line (no space before
// ":" or ","), and moves to its next node; "⌫" takes the last tap back. Whole lines that can
// come next (`quick`) are offered first. Typing in the box leaves the chips until it is empty.
function joined(line, text) {
  if (!line) return text;
  return /^[:,]/.test(text) ? line + text : line + " " + text;
}

function tapBuilder(holder) {
  const nodes = JSON.parse(holder.dataset.taps);
  const quick = JSON.parse(holder.dataset.quick);
  const input = document.getElementById("text");
  const back = document.getElementById("back");
  const step = document.getElementById("step");
  const form = input.form;
  const add = form.querySelector("button[type=submit]");
  const suggest = form.querySelector(".suggest");
  let trail = [];  // [line before the tap, node before the tap, the chip's text]
  let node = 1;
  let line = "";
  const used = () => new Set(trail.map((t) => t[2]));  // a card is named once in a line

  function chip(text, label, onTap, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tap" + (cls ? " " + cls : "");
    b.textContent = label;
    b.dataset.tap = text;
    b.addEventListener("click", onTap);
    return b;
  }

  function render() {
    holder.replaceChildren();
    const typing = input.value !== line;  // typed by hand: the chips wait for an empty box
    if (typing && input.value.trim() !== "") {
      holder.hidden = true;
      back.hidden = false;  // here it empties the box, and the chips come back
      back.textContent = "✕";
      step.textContent = "";
      add.classList.add("ready");
      return;
    }
    if (typing) reset();
    const here = nodes[node];
    back.textContent = "⌫";
    step.textContent = line ? "· " + here.p : "";
    back.hidden = trail.length === 0;
    add.classList.toggle("ready", here.end && line !== "");
    if (node === 1 && quick.length) {
      const row = document.createElement("div");
      row.className = "taprow next";
      row.append(Object.assign(document.createElement("span"), { className: "gname", textContent: "next" }));
      for (const text of quick) row.append(chip(text, text, () => tap(text, 0), "whole"));
      holder.append(row);
    }
    const gone = here.multi ? used() : new Set();
    for (const [heading, chips] of here.rows) {
      const shown = chips.filter(([text]) => !gone.has(text));
      if (!shown.length) continue;
      const row = document.createElement("div");
      row.className = "taprow";
      if (heading) row.append(Object.assign(document.createElement("span"), { className: "gname", textContent: heading }));
      for (const [text, label, next] of shown) row.append(chip(text, label, () => tap(text, next)));
      holder.append(row);
    }
    holder.hidden = holder.childElementCount === 0;
  }

  function tap(text, next) {
    trail.push([line, node, text]);
    line = next === 0 && node === 1 ? text : joined(line, text);
    node = next;
    input.value = line;
    suggest.replaceChildren();  // the chips say what comes next, not the completion
    render();
  }

  function reset() {
    trail = [];
    node = 1;
    line = "";
  }

  back.addEventListener("click", () => {
    if (input.value !== line) {
      reset();
    } else {
      const last = trail.pop();
      if (!last) return;
      [line, node] = last;
    }
    input.value = line;
    suggest.replaceChildren();
    render();
  });
  input.addEventListener("input", () => render());
  // the start's chips, or (a refused line kept in the box) ✕ to empty it
  render();
  return {
    // a tap on the board: the chip of that word here, if there is one
    tapWord(word) {
      if (input.value !== line) return false;
      const lower = word.toLowerCase();
      for (const [, chips] of nodes[node].rows) {
        for (const [text, , next] of chips) {
          if (text.toLowerCase() === lower && !(nodes[node].multi && used().has(text))) {
            tap(text, next);
            return true;
          }
        }
      }
      return false;
    },
  };
}

// the entry form sits at the bottom of the screen (in thumb reach); the page leaves room for it
function dock() {
  const form = document.querySelector("form.dock");
  if (!form) return;
  const main = document.querySelector("main");
  const fit = () => { main.style.paddingBottom = `${form.offsetHeight + 16}px`; };
  fit();
  if (window.ResizeObserver) new ResizeObserver(fit).observe(form);
}

// --- a grid of the setup, filled by tapping names into cells --------------------------------
// The menus stay in the form (what is sent); the cells show them. A tap on a name puts it in
// the chosen cell (at first the first empty one, then the next empty one) and takes it off the
// list: a name is placed once. A tap on a filled cell gives its name back and chooses the cell.
function tapGrid(fieldset) {
  const selects = [...fieldset.querySelectorAll("select")];
  if (selects.length < 4) return;
  const names = [...selects[0].options].filter((o) => o.value).map((o) => [o.value, o.text]);
  // only a grid that places each name once (Noir's: as many cells as names), not picks
  // whose answers may repeat (City Killer's districts)
  const same = selects.every((s) => s.options.length === selects[0].options.length);
  if (!same || names.length !== selects.length) return;
  const cells = [];
  let target = null;
  const tray = document.createElement("div");
  tray.className = "tray";
  const note = document.createElement("p");
  note.className = "tally";
  selects.forEach((select, i) => {
    select.hidden = true;
    const cell = document.createElement("button");
    cell.type = "button";
    cell.className = "gcell";
    cell.setAttribute("aria-label", select.getAttribute("aria-label") || `cell ${i + 1}`);
    cell.addEventListener("click", () => {
      if (select.value) select.value = "";
      target = i;
      update();
    });
    select.closest("label").append(cell);
    cells.push(cell);
  });
  const chips = names.map(([value, text]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tap";
    b.textContent = text;
    b.dataset.name = value;
    b.addEventListener("click", () => place(value));
    tray.append(b);
    return b;
  });
  fieldset.after(tray);
  fieldset.after(note);

  function placed() {
    const at = new Map();
    selects.forEach((s, i) => { if (s.value) at.set(s.value, (at.get(s.value) || []).concat(i)); });
    return at;
  }

  function place(value) {
    const at = placed();
    if (at.has(value)) {  // refused: each name is in the grid once
      note.textContent = `${value} is already in the grid`;
      note.classList.add("over");
      return;
    }
    const empty = selects.findIndex((s) => !s.value);
    const i = target !== null && !selects[target].value ? target : empty;
    if (i < 0) return;
    selects[i].value = value;
    target = null;
    // the last name left goes into the last cell left by itself
    const left = names.filter(([v]) => !placed().has(v));
    const open = selects.filter((s) => !s.value);
    if (left.length === 1 && open.length === 1) open[0].value = left[0][0];
    update();
  }

  function update() {
    const at = placed();
    selects.forEach((s, i) => {
      const twice = s.value && at.get(s.value).length > 1;
      cells[i].textContent = s.value ? s.options[s.selectedIndex].text : "·";
      cells[i].classList.toggle("empty", !s.value);
      cells[i].classList.toggle("target", i === (target ?? selects.findIndex((x) => !x.value)));
      cells[i].classList.toggle("twice", Boolean(twice));
    });
    chips.forEach((b) => { b.hidden = at.has(b.dataset.name); });
    const count = selects.filter((s) => s.value).length;
    const doubled = [...at.values()].some((list) => list.length > 1);
    note.textContent = doubled ? "a name is in two cells: tap one of them to empty it"
      : `${count} of ${selects.length} cells placed` + (count < selects.length ? ": tap the names in order, row by row" : "");
    note.classList.toggle("done", count === selects.length && !doubled);
    note.classList.toggle("over", doubled);
  }
  update();
}
