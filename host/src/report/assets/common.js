// Shared by the report and the games' viewers: names in words, the palettes, the large-type
// switch, loading a game's data, and which viewer shows which game (games.js, written by the
// report from the arena's games). Plain ES2017 with no modules, because module scripts are
// blocked on file:// pages.
"use strict";

var Arena = (function () {
  // Okabe & Ito's palette: told apart with every common colour-vision deficiency. Seats are
  // also always named, so colour is never the only cue.
  var SEAT_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];

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
  // Every game's decisions are named after their exports; loading is every game's.
  var DECISIONS = { init: "loading" };
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

  // The controls every replay viewer shares: play and pause, first, back, forward and last, the
  // speed, the seek slider, and the keyboard (space, the arrows, Home, End, + and -, L for large
  // type). `o.show(k)` draws frame k of 0..`o.last` (and moves the slider); `o.frame()` is the
  // frame shown; `o.speeds` are frames a second, `o.unit` names one frame and several
  // (["turn", "turns"]); `o.start` is where to begin ("end", a number, or nothing: the first).
  // Reads ?speed= (a value of `o.speeds`, else the third) and ?play=1.
  function playback(o) {
    var $ = function (id) { return document.getElementById(id); };
    var p = params(), seek = $("seek"), timer = null;
    var speed = o.speeds.indexOf(parseFloat(p.speed));
    if (speed < 0) speed = 2;

    function setSpeed(i) {
      speed = Math.max(0, Math.min(o.speeds.length - 1, i));
      var v = o.speeds[speed];
      $("speed").textContent = v + " " + (v === 1 ? o.unit[0] : o.unit[1]) + "/s";
    }
    function tick() {
      if (o.frame() >= o.last) { pause(); return; }
      o.show(o.frame() + 1);
      timer = setTimeout(tick, 1000 / o.speeds[speed]);
    }
    function play() {
      if (timer) return;
      if (o.frame() >= o.last) o.show(0);
      $("play").textContent = "‖ Pause";
      $("play").setAttribute("aria-pressed", "true");
      timer = setTimeout(tick, 1000 / o.speeds[speed]);
    }
    function pause() {
      if (timer) clearTimeout(timer);
      timer = null;
      $("play").textContent = "▶ Play";
      $("play").setAttribute("aria-pressed", "false");
    }
    function toggle() { if (timer) pause(); else play(); }
    function go(k) { pause(); o.show(k); }

    $("play").addEventListener("click", toggle);
    $("first").addEventListener("click", function () { go(0); });
    $("last").addEventListener("click", function () { go(o.last); });
    $("back").addEventListener("click", function () { go(o.frame() - 1); });
    $("forward").addEventListener("click", function () { go(o.frame() + 1); });
    $("slower").addEventListener("click", function () { setSpeed(speed - 1); });
    $("faster").addEventListener("click", function () { setSpeed(speed + 1); });
    seek.addEventListener("input", function () { go(parseInt(seek.value, 10) || 0); });
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var onSlider = e.target === seek;
      switch (e.key) {
        case " ": case "Spacebar": e.preventDefault(); toggle(); break;
        case "ArrowRight": if (!onSlider) { e.preventDefault(); go(o.frame() + 1); } break;
        case "ArrowLeft": if (!onSlider) { e.preventDefault(); go(o.frame() - 1); } break;
        case "Home": if (!onSlider) { e.preventDefault(); go(0); } break;
        case "End": if (!onSlider) { e.preventDefault(); go(o.last); } break;
        case "+": case "=": setSpeed(speed + 1); break;
        case "-": case "_": setSpeed(speed - 1); break;
        case "l": case "L": if (o.toggleLarge) o.toggleLarge(); break;
      }
    });
    // A focused button would also act on the space bar's keyup; the keydown above already did.
    document.addEventListener("keyup", function (e) { if (e.key === " ") e.preventDefault(); });

    setSpeed(speed);
    var want = o.start === "end" ? o.last : parseInt(o.start, 10);
    o.show(want >= 0 ? want : 0);
    if (p.play === "1") play();
  }

  // "1 game", "2 games": a count with its noun, singular for one.
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

  // What games.js says of a game (its title, its viewer's page, its link's label, the target of
  // its solo games); a game it does not know is shown by its name.
  function game(name) {
    var games = window.ARENA_GAMES || {};
    return games[name] || { title: name, page: null, link: "▶ replay", solo_target: null };
  }

  // The page that shows a game of `name` (null when no viewer knows it).
  function viewerPage(name) { return game(name).page; }

  // Whether the data `G` is for the viewer on `page`; if not, goes to the game's own viewer.
  function inViewer(G, page) {
    var own = viewerPage(G.game);
    if (own && own !== page) {
      location.replace(own + location.search);
      return false;
    }
    return true;
  }

  return {
    SEAT_COLOURS: SEAT_COLOURS, FAULTS: FAULTS, DECISIONS: DECISIONS, RESULTS: RESULTS, esc: esc,
    count: count, params: params, setupLargeType: setupLargeType, playback: playback, pad6: pad6,
    loadScript: loadScript, loadGame: loadGame, game: game, viewerPage: viewerPage,
    inViewer: inViewer,
    seatColour: function (seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; },
    fault: function (k) { return FAULTS[k] || String(k).replace(/_/g, " "); },
    decision: function (d) { return DECISIONS[d] || d + " decision"; },
    result: function (r) { return RESULTS[r] || r; }
  };
})();
