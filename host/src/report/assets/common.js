// Shared by the report and the replay viewer: names in words, the palettes and the large-type
// switch. Plain ES2017 with no modules, because module scripts are blocked on file:// pages.
"use strict";

var Arena = (function () {
  var ANIMALS = ["rabbit", "sheep", "pig", "cow", "horse", "small_dog", "big_dog"];
  var ANIMAL_WORDS = {
    rabbit: ["rabbit", "rabbits"], sheep: ["sheep", "sheep"], pig: ["pig", "pigs"],
    cow: ["cow", "cows"], horse: ["horse", "horses"], small_dog: ["small dog", "small dogs"],
    big_dog: ["big dog", "big dogs"], fox: ["fox", "foxes"], wolf: ["wolf", "wolves"]
  };
  // Okabe & Ito's palette: told apart with every common colour-vision deficiency. Seats are
  // also always named, so colour is never the only cue.
  var SEAT_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];

  var REASONS = {
    wrong_type: "the answer is not a trade (unknown kind code)",
    invalid_amount: "an amount is negative or larger than all animals of that kind",
    not_enough_animals: "the trader does not have what it offers",
    no_such_player: "the partner seat is not in this game",
    self_trade: "a player cannot trade with itself",
    partner_out: "the partner has forfeited the game",
    partner_not_enough_animals: "the partner does not have what was asked for",
    unequal_trade: "the two sides are not worth the same",
    many_to_many: "neither side is exactly one animal",
    declined: "the partner said no"
  };
  var FAULTS = {
    trap: "trap (the agent crashed)",
    stack_overflow: "stack overflow",
    decision_fuel: "out of fuel for one decision (too slow)",
    game_fuel: "out of fuel for the whole game",
    memory_limit: "memory limit exceeded",
    timeout: "wall-clock timeout",
    bad_answer: "unreadable answer",
    load_failed: "could not be loaded",
    forfeited: "already out"
  };
  var DECISIONS = { init: "loading", trade: "trade decision", accept: "accept decision", draft: "draft decision" };
  var RESULTS = {
    win: "win", win_last_standing: "win (last left)", draw_round_cap: "draw (round cap)",
    draw_all_forfeited: "draw (all forfeited)", unfinished: "unfinished",
    not_played: "not played (no agent could load; counts for nobody)"
  };

  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function animalWord(name, n) {
    var w = ANIMAL_WORDS[name] || [name, name];
    return n === 1 ? w[0] : w[1];
  }

  // A herd given either as the record's {"rabbit": 2} or as counts by kind index.
  function herdWords(herd) {
    var parts = [];
    ANIMALS.forEach(function (a, i) {
      var n = Array.isArray(herd) ? herd[i] : (herd || {})[a];
      if (n) parts.push(n + " " + animalWord(a, n));
    });
    return parts.length ? parts.join(", ") : "nothing";
  }

  function params() {
    var out = {};
    (location.search || "").replace(/^\?/, "").split("&").forEach(function (kv) {
      if (!kv) return;
      var i = kv.indexOf("=");
      var k = decodeURIComponent(i < 0 ? kv : kv.slice(0, i));
      out[k] = i < 0 ? "" : decodeURIComponent(kv.slice(i + 1).replace(/\+/g, " "));
    });
    return out;
  }

  // Large type for the projector: from ?large=1, else the last choice on this machine.
  function setupLargeType() {
    var p = params();
    var on = p.large === "1";
    if (p.large === undefined) {
      try { on = localStorage.getItem("arena-large") === "1"; } catch (e) { /* file:// may refuse */ }
    }
    var button = document.getElementById("large-toggle");
    function apply() {
      document.documentElement.classList.toggle("large", on);
      if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
    }
    apply();
    function toggle() {
      on = !on;
      try { localStorage.setItem("arena-large", on ? "1" : "0"); } catch (e) { /* ignore */ }
      apply();
    }
    if (button) button.addEventListener("click", toggle);
    return toggle;
  }

  // "1 farkle", "2 farkles": a count with its noun, singular for one.
  function count(n, one, many) {
    return n + " " + (n === 1 ? one : many || one + "s");
  }

  function pad6(n) { return ("000000" + n).slice(-6); }

  // Data is loaded with <script> elements, because browsers block fetch() on file:// pages.
  function loadScript(src, done, failed) {
    var s = document.createElement("script");
    s.src = src;
    s.onload = done;
    s.onerror = failed;
    document.head.appendChild(s);
  }

  // Games per replay pack, as `arena report` writes them (PACK_GAMES in report/packs.rs).
  var PACK_GAMES = 100;

  // Game `id`'s replay data: from its replay pack, games/replays-NNNNNN.js (the report's), whose
  // `data` is one gzip stream in base64 of lines `ID JSON` (see report/packs.rs); else from its
  // own script games/game-NNNNNN.js (as `arena serve` serves it). Calls done(game) or fail(message).
  function loadGame(id, done, fail) {
    var pack = "games/replays-" + pad6(id - id % PACK_GAMES) + ".js";
    var single = "games/game-" + pad6(id) + ".js";
    function fromSingle() {
      window.ARENA_GAME = undefined;
      loadScript(single, function () {
        if (window.ARENA_GAME) done(window.ARENA_GAME);
        else fail(single + " holds no game.");
      }, function () {
        fail("No replay data for game " + id + " (" + pack + " does not hold it: its record may be " +
          "unreadable; see the report's list of games).");
      });
    }
    loadScript(pack, function () {
      var P = window.ARENA_PACK;
      if (!P || !P.games || P.games.indexOf(id) < 0) { fromSingle(); return; }
      gunzipBase64(P.data).then(function (text) {
        var key = "\n" + id + " ", at = ("\n" + text).indexOf(key);
        if (at < 0) throw new Error("game " + id + " is not in the data");
        var start = at + key.length - 1, end = text.indexOf("\n", start);
        return JSON.parse(text.slice(start, end < 0 ? text.length : end));
      }).then(done, function (e) {
        fail("The replay data of game " + id + " in " + pack + " cannot be read (" + e +
          "): this browser may be too old (it needs DecompressionStream), or the file is damaged.");
      });
    }, fromSingle);
  }

  function gunzipBase64(coded) {
    return Promise.resolve().then(function () {
      var bin = atob(coded), bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      return new Response(stream).text();
    });
  }

  return {
    ANIMALS: ANIMALS, SEAT_COLOURS: SEAT_COLOURS, REASONS: REASONS, FAULTS: FAULTS,
    DECISIONS: DECISIONS, RESULTS: RESULTS, esc: esc, animalWord: animalWord,
    herdWords: herdWords, count: count, params: params, setupLargeType: setupLargeType, pad6: pad6,
    loadScript: loadScript, loadGame: loadGame,
    seatColour: function (seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; },
    reason: function (r) { return REASONS[r] || String(r).replace(/_/g, " "); },
    fault: function (k) { return FAULTS[k] || String(k).replace(/_/g, " "); },
    decision: function (d) { return DECISIONS[d] || d; },
    result: function (r) { return RESULTS[r] || r; }
  };
})();
