// The replay viewers' chrome, shared by every game: PAGE?game=12[&turn=end|N][&speed=4][&play=1]
// [&large=1]. It loads game 12's data (Arena.loadGame), sends a game of another kind to its own
// viewer, writes the title, and, for a game shown frame by frame, runs the controls (Arena.playback:
// play and pause, the steps, the slider, the speed, the keys), the position label and the banner.
// A game's own script only draws: it registers itself with
//
//   Arena.viewer({
//     title: "Dominoes",           // the page's title after "Game N: a vs b — "
//     unit: ["move", "moves"],     // one frame and several; none: no frames (a table of turns)
//     speeds: [0.5, 1, 2, 4],      // frames a second (?speed= picks one; the third by default)
//     at: "turn",                  // the URL parameter of the first frame shown (?turn=end|N)
//     start: function (G, view) {  // lays out the game's part of the page in view.root; returns
//       return {                   // (for a game with frames; null after view.fail(message)) what
//                                  // the chrome asks of each frame:
//         last: 42,                // the last frame (frames are 0..last; 0 is the start)
//         draw: function (k, from) {},  // draws frame k (`from`: the frame shown before, or null)
//         position: function (k) {},    // the slider's label at frame k
//         banner: function (k) {}       // at the last frame: {won: bool, text or html}; else null
//       };
//     }
//   });
//
// `view` also gives the players' names (view.name(seat); view.who(seat): the name with its colour
// swatch, which `spec.who(seat, name)` may replace), the URL's parameters (view.params), a way to
// give up (view.fail(message)), and the side panel most games show beside their board (view.side,
// view.narrate, view.logs).
"use strict";

Arena.viewer = function (spec) {
  var esc = Arena.esc;
  var $ = function (x) { return document.getElementById(x); };
  var p = Arena.params();
  var toggleLarge = Arena.setupLargeType();
  var frames = !!spec.unit;
  var game = document.body.getAttribute("data-game");
  var page = Arena.viewerPage(game) || game + ".html";

  function fail(msg) {
    var e = $("load-error");
    e.hidden = false;
    e.textContent = msg;
    $("controls").hidden = true;
  }
  if (!frames) {
    // Without the controls, L is the one key.
    document.addEventListener("keydown", function (e) {
      if ((e.key === "l" || e.key === "L") && !/INPUT|TEXTAREA/.test(e.target.tagName)) toggleLarge();
    });
  }
  var id = parseInt(p.game, 10);
  if (!(id >= 0)) {
    fail("No game given: open a game from the report's list of games (" + page + "?game=N).");
    return;
  }
  Arena.loadGame(id, function (G) {
    // A game of another kind goes to its own viewer.
    if (Arena.inViewer(G, page)) start(G);
  }, fail);

  function start(G) {
    var names = G.players || [];
    function name(seat) { return names[seat] != null ? names[seat] : "seat " + seat; }
    function who(seat) {
      return '<span class="who"><span class="swatch" style="background:' + Arena.seatColour(seat) + '"></span>' + esc(name(seat)) + "</span>";
    }
    var unit = frames ? spec.unit[0] : "";
    var view = {
      root: $("view"), names: names, name: name, params: p, fail: fail,
      who: spec.who ? function (seat) { return spec.who(seat, name); } : who,
      // The side panel: `first` (the game's own sections), then what happened this frame and the
      // debug log.
      side: function (first) {
        return '<aside class="side">' + first +
          '<section aria-label="What happened this ' + unit + '"><h2 id="turn-title">This ' + unit + "</h2>" +
          '<ol id="narration" class="narration" aria-live="polite"></ol></section>' +
          '<section id="logs-box" hidden><h2>Debug log</h2><div id="logs" class="logs"></div></section></aside>';
      },
      // What happened, under `title`: items [class, icon, text].
      narrate: function (title, items) {
        $("turn-title").textContent = title;
        $("narration").innerHTML = items.map(function (it) {
          return '<li class="ev ' + it[0] + '"><span class="icon" aria-hidden="true">' + it[1] + "</span><span>" + esc(it[2]) + "</span></li>";
        }).join("");
      },
      // The debug log of a frame (a list of {seat, text}); `list` null: the game has no logs.
      logs: function (list) {
        $("logs-box").hidden = !list;
        if (!list) return;
        $("logs").innerHTML = list.length ? list.map(function (l) {
          return '<div class="log" style="--seat:' + Arena.seatColour(l.seat) + '"><div class="log-who">' + esc(name(l.seat)) +
            "</div><pre>" + esc(l.text) + "</pre></div>";
        }).join("") : '<p class="muted">Nothing logged this ' + unit + ".</p>";
      }
    };
    var game = (G.id != null ? "Game " + G.id + ": " : "");
    document.title = game + names.join(" vs ") + " — " + spec.title;
    $("title").innerHTML = game + names.map(function (n, seat) { return view.who(seat); }).join(' <span class="vs">vs</span> ');
    var shown = spec.start(G, view);
    if (!frames || !shown) return;

    $("controls").hidden = false;
    $("keys").hidden = false;
    $("key-step").textContent = "one " + unit + " forward / back";
    var seek = $("seek"), banner = $("banner"), last = shown.last, frame = null;
    seek.max = String(last);
    function show(k) {
      k = Math.max(0, Math.min(last, k));
      var from = frame;
      frame = k;
      shown.draw(k, from);
      seek.value = String(k);
      $("position").textContent = shown.position(k);
      var b = k === last ? shown.banner(k) : null;
      banner.hidden = !b;
      if (!b) return;
      banner.className = "banner " + (b.won ? "won" : "drawn");
      if (b.html != null) banner.innerHTML = b.html;
      else banner.textContent = b.text;
    }
    Arena.playback({
      show: show, last: last, frame: function () { return frame; },
      speeds: spec.speeds, unit: spec.unit, start: p[spec.at], toggleLarge: toggleLarge
    });
  }
};
