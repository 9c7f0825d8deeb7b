"use strict";
// binokel-sim's page: the cards of a preset as clickable cards, the answers from the JSON API under /api/.
// Every figure comes from the server; the page only lays it out. Errors are the server's own words (its 422).
const Binokel = (() => {
  const SUIT_NAMES = { E: "Eichel", G: "Grün", H: "Herz", S: "Schellen" };
  const $ = (id) => document.getElementById(id);
  let presets = [];
  let preset = null;

  function el(tag, attrs = {}, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids.flat()) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }

  async function api(method, path, body) {
    const r = await fetch(path, {
      method, headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await r.json().catch(() => ({ detail: `the server answered ${r.status}` }));
    if (!r.ok) throw new Error(data.detail || `the server answered ${r.status}`);
    return data;
  }

  function showError(msg) {
    const e = $("error");
    e.textContent = msg || "";
    e.hidden = !msg;
  }

  const fmt = (x, d = 1) => (x === null || x === undefined ? "–" : Number(x).toFixed(d));
  const pm = (x, se, d = 1) => (se === null || se === undefined ? fmt(x, d) : `${fmt(x, d)} ± ${fmt(se, d)}`);
  const pct = (p) => (p === null || p === undefined ? "–" : `${(100 * p).toFixed(1)}%`);

  function cardFace(card, attrs = {}) {
    const suit = card[0];
    return el("button", { class: `card ${suit}`, type: "button", title: `${SUIT_NAMES[suit]} ${card.slice(1)}`,
                          "data-card": card, ...attrs }, card.slice(1), el("small", {}, SUIT_NAMES[suit]));
  }

  // A deck of the preset (each physical copy a card) and a row of chosen cards, at most `limit`.
  // `others()`: cards another picker holds (they are out of this deck); `ordered`: keep the click order.
  class Picker {
    constructor(root, limit, onChange, { others = () => [], ordered = false, name = "hand" } = {}) {
      Object.assign(this, { root, limit, onChange, others, ordered, name, cards: [] });
      this.render();
    }
    order(card) { return preset.cards.findIndex((c) => c.card === card); }
    held(list) { const n = {}; for (const c of list) n[c] = (n[c] || 0) + 1; return n; }
    add(card) {
      if (this.cards.length >= this.limit) {
        showError(`${this.name}: holds ${this.limit} cards at ${preset.name}; click a card in it to put it back`);
        return;
      }
      showError("");
      this.cards.push(card);
      if (!this.ordered) this.cards.sort((a, b) => this.order(a) - this.order(b));
      this.changed();
    }
    removeAt(i) { this.cards.splice(i, 1); showError(""); this.changed(); }
    set(cards) { this.cards = [...cards]; this.changed(); }
    clear() { this.cards = []; this.changed(); }
    changed() { this.render(); this.onChange(this); }
    text() { return this.cards.join(" "); }
    render() {
      const used = this.held([...this.cards, ...this.others()]);
      const row = el("div", { class: "hand", id: `${this.root.id}-chosen`, "aria-label": this.name },
        this.cards.map((c, i) => cardFace(c, { onclick: () => this.removeAt(i), title: `put ${c} back` })));
      const deck = el("div", { class: "deck" });
      for (const s of preset.suits) {
        const line = el("div", { class: "suitrow" }, el("span", { class: "suitname" }, s.name));
        for (const c of preset.cards.filter((c) => c.suit === s.letter)) {
          for (let k = 0; k < c.copies; k++) {
            const gone = k < (used[c.card] || 0);
            line.append(cardFace(c.card, { class: `card ${c.suit}${gone ? " used" : ""}`, disabled: gone,
                                           onclick: () => this.add(c.card) }));
          }
        }
        deck.append(line);
      }
      const input = el("input", { id: `${this.root.id}-text`, placeholder: "or type the cards: EA EA E10 EK ...",
                                  "aria-label": `${this.name} as text` });
      const typed = el("div", { class: "typed" }, input,
        el("button", { type: "button", id: `${this.root.id}-use`, onclick: () => this.useTyped(input.value) }, "Use"),
        el("button", { type: "button", class: "plain", onclick: () => this.clear() }, "Clear"));
      this.root.replaceChildren(row, deck, typed);
    }
    // Typed text goes to the server as it is (/api/cards): its 422 names the problem in the API's own words.
    async useTyped(text) {
      try {
        showError("");
        const size = this.ordered ? null : this.limit;
        this.set((await api("POST", "/api/cards", { rules: preset.name, cards: text, what: this.name, size,
                                                     ordered: this.ordered })).cards);
      } catch (e) { showError(e.message); }
    }
  }

  // The ladder as a chart: P(make) with its 95% interval above, E[score] ± 2 SE below; safe, ceiling, bid up to.
  function ladderChart(bids, marks, confidence) {
    const top = Math.max(...Object.values(marks).filter((v) => v !== null && v !== undefined), bids[0].bid);
    let lastLive = bids.length - 1;
    while (lastLive > 0 && bids[lastLive].p_make < 0.02) lastLive--;
    const upto = Math.max(bids[lastLive].bid, top + 30);
    const rows = bids.filter((b) => b.bid <= upto);
    const W = 640, L = 56, R = 16, P1 = [30, 170], P2 = [205, 345], H = 380;
    const x0 = rows[0].bid, x1 = rows[rows.length - 1].bid;
    const X = (b) => L + ((b - x0) / Math.max(1, x1 - x0)) * (W - L - R);
    const Y1 = (p) => P1[1] - p * (P1[1] - P1[0]);
    const lo = Math.min(0, ...rows.map((b) => b.expected_score - 2 * (b.expected_score_se || 0)));
    const hi = Math.max(10, ...rows.map((b) => b.expected_score + 2 * (b.expected_score_se || 0)));
    const Y2 = (v) => P2[1] - ((v - lo) / (hi - lo)) * (P2[1] - P2[0]);
    const path = (pts) => pts.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join("");
    const band = (up, down) => `${path(up)}${path(down.reverse()).replace("M", "L")}Z`;
    const parts = [];
    parts.push(`<path d="${band(rows.map((b) => [X(b.bid), Y1(b.p_make_hi)]), rows.map((b) => [X(b.bid), Y1(b.p_make_lo)]))}" fill="#90caf9" opacity=".45"/>`);
    parts.push(`<path d="${path(rows.map((b) => [X(b.bid), Y1(b.p_make)]))}" fill="none" stroke="#1565c0" stroke-width="2"/>`);
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${Y1(confidence)}" y2="${Y1(confidence)}" stroke="#2e7d32" stroke-dasharray="4 3"/>`);
    const se = (b) => 2 * (b.expected_score_se || 0);
    parts.push(`<path d="${band(rows.map((b) => [X(b.bid), Y2(b.expected_score + se(b))]), rows.map((b) => [X(b.bid), Y2(b.expected_score - se(b))]))}" fill="#bcaaa4" opacity=".5"/>`);
    parts.push(`<path d="${path(rows.map((b) => [X(b.bid), Y2(b.expected_score)]))}" fill="none" stroke="#4e342e" stroke-width="2"/>`);
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${Y2(0)}" y2="${Y2(0)}" stroke="#9e9e9e"/>`);
    const colours = { safe: "#2e7d32", ceiling: "#e65100", "bid up to": "#1565c0" };
    let k = 0;
    for (const [name, bid] of Object.entries(marks)) {
      if (bid === null || bid === undefined || bid < x0 || bid > x1) continue;
      parts.push(`<line x1="${X(bid)}" x2="${X(bid)}" y1="${P1[0]}" y2="${P2[1]}" stroke="${colours[name]}" stroke-width="1.5" stroke-dasharray="${name === "bid up to" ? "5 3" : ""}"/>`);
      parts.push(`<text x="${X(bid) + 3}" y="${P1[0] + 12 + 13 * k++}" fill="${colours[name]}" font-size="12">${name} ${bid}</text>`);
    }
    const step = (x1 - x0) > 300 ? 50 : (x1 - x0) > 120 ? 20 : 10;
    for (let b = Math.ceil(x0 / step) * step; b <= x1; b += step) {
      parts.push(`<text x="${X(b)}" y="${H - 18}" font-size="11" text-anchor="middle" fill="#616161">${b}</text>`);
    }
    for (const p of [0, 0.5, 1]) parts.push(`<text x="${L - 6}" y="${Y1(p) + 4}" font-size="11" text-anchor="end" fill="#616161">${p}</text>`);
    for (const v of [lo, 0, hi]) parts.push(`<text x="${L - 6}" y="${Y2(v) + 4}" font-size="11" text-anchor="end" fill="#616161">${Math.round(v)}</text>`);
    parts.push(`<text x="${L}" y="${P1[0] - 10}" font-size="12" fill="#212121">P(make), 95% interval (dashed: ${confidence})</text>`);
    parts.push(`<text x="${L}" y="${P2[0] - 10}" font-size="12" fill="#212121">E[score] ± 2 SE</text>`);
    parts.push(`<text x="${(W + L) / 2}" y="${H - 2}" font-size="12" text-anchor="middle" fill="#212121">bid</text>`);
    return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="bid ladder">${parts.join("")}</svg>`;
  }

  function ladderTable(bids, marks) {
    const gain = bids.length && "gain_vs_pass" in bids[0];
    const head = el("tr", {}, ["bid", "P(make) [95%]", "E[score]", "P(go out)", ...(gain ? ["vs pass"] : [])].map((h) => el("th", {}, h)));
    const body = bids.filter((b) => b.p_make >= 0.005 || b.bid <= (marks.ceiling || 0) + 30).map((b) => el("tr",
      { class: b.bid === marks.safe ? "safe" : b.bid === marks.ceiling ? "ceiling" : "" },
      el("td", {}, b.bid), el("td", {}, `${fmt(b.p_make, 3)} [${fmt(b.p_make_lo, 3)}, ${fmt(b.p_make_hi, 3)}]`),
      el("td", {}, pm(b.expected_score, b.expected_score_se)), el("td", {}, fmt(b.p_surrender, 3)),
      ...(gain ? [el("td", {}, pm(b.gain_vs_pass, b.gain_vs_pass_se))] : [])));
    return el("table", { id: "ladder-table" }, head, ...body);
  }

  function verdict(a) {
    const vs = a.versus_pass || {};
    const parts = [];
    if (vs.bid_up_to !== undefined) {
      parts.push(el("div", {}, "Bid up to ", el("b", { class: "upto", id: "bid-up-to" }, vs.bid_up_to ?? "— pass"),
        `: passing is worth ${pm(vs.passing.mean, vs.passing.se)} to you.`));
    } else if (vs.missing) {
      parts.push(el("div", { class: "note" }, `passing: ${vs.missing}`));
    }
    parts.push(el("div", {}, "Safe bid ", el("b", { class: "safe", id: "safe-bid" }, a.safe_bid ?? "none"),
      ` (P(make) ≥ ${Math.round(100 * a.confidence)}%), ceiling `,
      el("b", { class: "ceiling", id: "ceiling-bid" }, a.ceiling_bid ?? "none — pass"), " (highest with E[score] > 0)."));
    return parts;
  }

  // ---------------------------------------------------------------- Hand page
  function handPage() {
    let job = null;
    let timer = null;
    const picker = new Picker($("picker"), preset.hand_size, () => {
      $("hand-count").textContent = `${picker.cards.length} / ${preset.hand_size}`;
      if (picker.cards.length === preset.hand_size) ask(); else $("hand-answer").hidden = true;
    });
    $("hand-count").textContent = `0 / ${preset.hand_size}`;

    async function ask() {
      const q = { rules: preset.name, hand: picker.text(), seat: 0 };
      try {
        const t0 = performance.now();
        const [m, b] = await Promise.all([api("POST", "/api/melds", q), api("POST", "/api/bid", q)]);
        showMelds(m);
        showBid(b);
        $("hand-answer").hidden = false;
        document.body.dataset.answeredMs = String(Math.round(performance.now() - t0));
      } catch (e) { showError(e.message); $("hand-answer").hidden = true; }
    }

    function showMelds(m) {
      const best = m.best;
      const rows = best.melds.map((x) => el("tr", {}, el("td", {}, `${x.name}${x.suit ? " " + SUIT_NAMES[x.suit] : ""}`),
        el("td", {}, x.cards.join(" ")), el("td", {}, x.points)));
      const byTrump = Object.entries(m.by_trump).map(([s, r]) => el("details", {},
        el("summary", {}, `trump ${SUIT_NAMES[s]}: ${r.total}`),
        el("table", { class: "meldlist" }, r.melds.map((x) => el("tr", {}, el("td", {}, `${x.name}${x.suit ? " " + SUIT_NAMES[x.suit] : ""}`),
          el("td", {}, x.cards.join(" ")), el("td", {}, x.points))))));
      $("melds").replaceChildren(
        el("p", {}, "Best trump ", el("b", { id: "best-trump" }, SUIT_NAMES[best.trump]), ": ",
           el("b", { id: "meld-total" }, best.total), " meld points."),
        el("table", { class: "meldlist", id: "meld-table" }, rows.length ? rows : [el("tr", {}, el("td", {}, "no melds"))]),
        el("h3", { class: "note" }, "At each trump"), ...byTrump);
    }

    function showBid(b, where = { verdict: "verdict", chart: "chart", ladder: "ladder", basis: "basis" }) {
      const marks = { safe: b.safe_bid, ceiling: b.ceiling_bid, "bid up to": (b.versus_pass || {}).bid_up_to };
      $(where.verdict).replaceChildren(...verdict(b));
      $(where.chart).innerHTML = ladderChart(b.bids, marks, b.confidence);
      $(where.ladder).replaceChildren(ladderTable(b.bids, { safe: b.safe_bid, ceiling: b.ceiling_bid }));
      $(where.basis).textContent = `n = ${b.n} · ${b.basis}. Errors: ± one standard error, [95% interval].` +
        (b.tapp_value ? ` Tapp value for this hand ${pm(b.tapp_value.mean, b.tapp_value.se)}.` : "");
    }

    async function startJob() {
      showError("");
      try {
        job = await api("POST", "/api/jobs", { rules: preset.name, hand: picker.text(), seat: 0,
          samples: Number($("samples").value), seed: Number($("seed").value) });
      } catch (e) { showError(e.message); return; }
      $("check-start").disabled = true;
      $("check-cancel").disabled = false;
      $("check-progress").hidden = false;
      $("checked").replaceChildren();
      timer = setInterval(poll, 500);
    }

    async function poll() {
      if (!job) return;
      try { job = await api("GET", `/api/jobs/${job.id}`); } catch (e) { showError(e.message); stop(); return; }
      const passing = job.state === "passing";
      $("check-progress").max = (passing ? job.pass_total : job.total) || 1;
      $("check-progress").value = passing ? job.pass_done : job.done;
      const words = { starting: "starting", running: `${job.done} of ${job.total} deals played`,
                      passing: `weighing passing: ${job.pass_done} of ${job.pass_total} deals where you pass`,
                      done: "done", error: "failed", cancelled: "cancelled" };
      $("check-state").textContent = `${words[job.state]} · ${job.seconds} s`;
      $("check-state").dataset.state = job.state;
      if (job.state === "done") { showChecked(job.result); stop(); }
      else if (job.state === "error" || job.state === "cancelled") { if (job.error) showError(job.error); stop(); }
    }

    function showChecked(r) {
      const marks = { safe: r.safe_bid, ceiling: r.ceiling_bid, "bid up to": (r.versus_pass || {}).bid_up_to };
      const box = $("checked");
      box.replaceChildren(el("div", { class: "verdict", id: "checked-verdict" }, ...verdict({ ...r, confidence: r.confidence })),
        el("div", { class: "chart", id: "checked-chart" }),
        el("p", { class: "note" }, `n = ${r.samples} deals played double-dummy, seed ${r.seed}` +
          (r.instant ? ` · instant tier: ${r.instant.line}` : "")));
      $("checked-chart").innerHTML = ladderChart(r.bids, marks, r.confidence);
    }

    function stop() {
      clearInterval(timer);
      timer = null;
      $("check-start").disabled = false;
      $("check-cancel").disabled = true;
    }

    $("check-start").addEventListener("click", startJob);
    $("check-cancel").addEventListener("click", async () => {
      if (!job) return;
      try { job = await api("DELETE", `/api/jobs/${job.id}`); } catch (e) { showError(e.message); }
      $("check-state").textContent = `cancelled · its worker freed in ${job.freed_in} s`;
      $("check-state").dataset.state = "cancelled";
      stop();
    });
    // A player who leaves takes his job with him.
    window.addEventListener("pagehide", () => {
      if (job && timer) navigator.sendBeacon(`/api/jobs/${job.id}/cancel`);
    });
  }

  // ---------------------------------------------------------------- Tapp page
  function tappPage() {
    let tapp = null;
    const hand = new Picker($("picker"), preset.hand_size, () => changed(), { others: () => (tapp ? tapp.cards : []) });
    tapp = new Picker($("tapp-picker"), preset.tapp_size, () => changed(), { name: "Tapp", others: () => hand.cards });

    async function changed() {
      $("hand-count").textContent = `${hand.cards.length} / ${preset.hand_size}`;
      $("tapp-count").textContent = `${tapp.cards.length} / ${preset.tapp_size}`;
      hand.render(); tapp.render();
      if (hand.cards.length !== preset.hand_size || (tapp.cards.length && tapp.cards.length !== preset.tapp_size)) {
        $("tapp-answer").hidden = true;
        return;
      }
      try {
        const a = await api("POST", "/api/tapp", { rules: preset.name, hand: hand.text(), seat: 0,
                                                    tapp: tapp.cards.length ? tapp.text() : null });
        show(a);
        $("tapp-answer").hidden = false;
      } catch (e) { showError(e.message); }
    }

    function show(a) {
      const v = a.value;
      $("tapp-value").replaceChildren(v.missing ? el("p", { class: "note" }, v.missing) : el("p", {},
        "For this hand the Tapp is worth ", el("b", { id: "tapp-worth" }, pm(v.mean, v.se)), " points: ",
        `${v.n} Tapps drawn from the cards you cannot see, each taken up with the best discard and trump, against `,
        "laying the Tapp away unseen (one Tapp's spread: sd ", fmt(v.sd), ").",
        v.reference ? ` Hands like it in the corpus: ${pm(v.reference.mean, v.reference.se)} (n = ${v.reference.n}).` : ""));
      const x = a.exchange;
      $("exchange").replaceChildren(x ? el("div", { id: "exchange-answer" }, el("h3", {}, "With this Tapp"),
        el("p", {}, el("b", {}, x.announce), `: you keep ${x.kept_melds} meld points (the heuristic exchange; its`,
           ` estimate of your total ${fmt(x.estimate, 0)}).`)) :
        el("p", { class: "note" }, "Pick the Tapp's cards above for the best discard and trump with it."));
      const o = a.odds;
      const shares = Object.entries(o.trump_share).filter(([, p]) => p > 0).map(([s, p]) => `${SUIT_NAMES[s]} ${pct(p)}`).join(", ");
      const kept = o.kept.filter((k) => k.p_at_least >= 0.001);
      $("odds").replaceChildren(
        el("p", {}, `Your melds now: ${o.own_best}. With the Tapp, after the best discard, on average `,
           el("b", { id: "mean-kept" }, fmt(o.mean_kept)), ` (+${fmt(o.mean_gain)}); exact over all ${o.ways} Tapps.`),
        el("p", {}, `Trump it points to: ${shares}.`),
        el("table", { id: "kept-table" }, el("tr", {}, el("th", {}, "meld points kept ≥"), el("th", {}, "probability"), el("th", {}, "")),
          kept.map((k) => el("tr", {}, el("td", {}, k.total), el("td", {}, pct(k.p_at_least)),
            el("td", {}, el("span", { class: "bar", style: `width:${Math.round(160 * k.p_at_least)}px` }))))),
        el("table", { id: "levels-table" }, el("tr", {}, el("th", {}, "meld"), el("th", {}, "in your hand"), el("th", {}, "with the Tapp")),
          o.levels.map((l) => el("tr", {}, el("td", {}, l.meld.replace(/ ([EGHS])$/, (_, s) => " " + SUIT_NAMES[s])),
            el("td", {}, l.in_hand ? "yes" : "–"), el("td", {}, pct(l.p_with_tapp))))));
    }
    changed();
  }

  // ---------------------------------------------------------------- Table page
  function tablePage() {
    // Your hand is the one at the first trick, so the cards you played are in both rows; the server checks
    // that the two agree (its 422 names a card played that nobody could hold).
    let played = null;
    const hand = new Picker($("picker"), preset.hand_size, () => count());
    played = new Picker($("played-picker"), preset.hand_size * preset.seats, () => count(),
                        { ordered: true, name: "cards played" });
    const seats = [...Array(preset.seats).keys()];
    for (const id of ["seat", "soloist"]) $(id).replaceChildren(...seats.map((s) => el("option", { value: s }, `seat ${s}`)));
    $("trump").replaceChildren(...preset.suits.map((s) => el("option", { value: s.letter }, s.name)));
    function count() {
      $("hand-count").textContent = `${hand.cards.length} cards`;
      $("played-count").textContent = `${played ? played.cards.length : 0} cards`;
    }
    count();
    $("ask-card").addEventListener("click", async () => {
      showError("");
      const q = { rules: preset.name, hand: hand.text(), seat: Number($("seat").value), soloist: Number($("soloist").value),
                  trump: $("trump").value, played: played.text(), tapp: $("tapp").value || null,
                  melds: $("melds-shown").value || null, discards: $("discards").value || null,
                  worlds: Number($("worlds").value) };
      $("ask-card").disabled = true;
      try {
        const a = await api("POST", "/api/card", q);
        const better = a.soloist_side ? "higher is better for you (the soloist's side)" : "lower is better for you (you defend)";
        $("card").replaceChildren(
          el("p", {}, `Trick ${a.trick}, card ${a.card_of_trick}: play `, el("b", { id: "play-card" }, a.play),
             `. Each legal card's value: the soloist's side's points from here on, mean over ${a.worlds} deals of the `,
             `${a.unseen_cards} cards you cannot see (${better}).`),
          el("table", { id: "card-table" }, el("tr", {}, el("th", {}, "card"), el("th", {}, "mean value")),
            a.cards.map((c) => el("tr", { class: c.play ? "play" : "" }, el("td", {}, c.card),
              el("td", {}, Math.abs(c.mean_hi - c.mean_lo) < 1e-9 ? fmt(c.mean_lo) : `${fmt(c.mean_lo)} .. ${fmt(c.mean_hi)}`)))),
          el("p", { class: "note" }, "A range: the value proven only as far as the choice needs."));
        $("card-answer").hidden = false;
      } catch (e) { showError(e.message); }
      $("ask-card").disabled = false;
    });
  }

  // ---------------------------------------------------------------- Rules page
  function rulesPage() {
    const pick = new Set(["standard", "wuerttemberg", preset.name]);
    $("preset-boxes").replaceChildren(...presets.filter((p) => p.auction).map((p) => el("label", {},
      el("input", { type: "checkbox", value: p.name, checked: pick.has(p.name) }), ` ${p.name}`)));
    $("compare").addEventListener("click", async () => {
      const names = [...document.querySelectorAll("#preset-boxes input:checked")].map((i) => i.value);
      showError("");
      $("compare-state").textContent = "comparing (a few seconds a preset the first time) ...";
      $("compare").disabled = true;
      try {
        const t0 = performance.now();
        const a = await api("POST", "/api/compare", { rules: names });
        $("compare-table").replaceChildren(el("table", { id: "compare-rows" },
          el("tr", {}, el("th", {}, "figure"), ...names.map((n) => el("th", {}, n))),
          a.table.map((r) => el("tr", {}, el("td", {}, r.figure), ...names.map((n) => el("td", {}, r[n] ?? "–"))))));
        $("compare-state").textContent = `${((performance.now() - t0) / 1000).toFixed(1)} s`;
      } catch (e) { showError(e.message); $("compare-state").textContent = ""; }
      $("compare").disabled = false;
    });
  }

  async function start(page) {
    try { presets = await api("GET", "/api/presets"); } catch (e) { showError(e.message); return; }
    const want = document.body.dataset.rules;
    preset = presets.find((p) => p.name === want);
    const sel = $("preset");
    sel.replaceChildren(...presets.map((p) => el("option", { value: p.name, selected: p === preset }, p.name)));
    sel.addEventListener("change", () => { location.search = `?rules=${encodeURIComponent(sel.value)}`; });
    if (!preset) {  // the server's words for it, as the API gives them
      try { await api("GET", `/api/presets/${encodeURIComponent(want)}`); } catch (e) { showError(e.message); }
      return;
    }
    $("preset-description").textContent = `${preset.name}: ${preset.description} Hand ${preset.hand_size} cards, ` +
      `Tapp ${preset.tapp_size}, ${preset.seats} seats.`;
    if (!preset.auction && page !== "rules") {
      showError(`rules: preset '${preset.name}' has no auction; pick another preset`);
      return;
    }
    ({ hand: handPage, tapp: tappPage, table: tablePage, rules: rulesPage })[page]();
    document.body.dataset.ready = "1";
  }

  return { start, api, ladderChart };
})();
