// The light cycles viewer's own part (the chrome, report/viewer/viewer.js, loads the game and runs
// the controls): the game tick by tick, the grid with its walls, each seat's trail in its colour,
// the heads of the living cycles, where each one crashed and why, and every seat's fuel clock.
// Frame 0 is the start; frame k the grid after tick k.
"use strict";

(function () {
  var esc = Arena.esc;
  var CAUSES = {
    wall: "hit a wall", trail: "ran into a trail", same_cell: "met another head in the same cell",
    swap: "swapped cells with another head", out: "was taken out of the game"
  };
  var ENDS = { last_alive: "the last cycle alive", all_dead: "the last cycles crashing together", tick_cap: "the tick cap" };
  var OUTS = { forfeit: "a fault (forfeit)", time: "its clock ran out", load: "it failed to load" };
  function num(x) { return Number(x || 0).toLocaleString("en-US"); }

  function start(G, view) {
    var names = G.players, ticks = G.ticks || [], W = G.width, H = G.height;
    var last = ticks.length, $ = function (x) { return document.getElementById(x); };
    var hasLogs = ticks.some(function (t) { return (t.moves || []).some(function (m) { return m.logs && m.logs.length; }); });
    // owner[k][cell]: the seat whose trail holds the cell after tick k (-1 empty); the trails
    // only grow, so each frame is the one before plus the heads that entered a cell.
    var owner = [], heads = [], deaths = [];
    var cells = new Array(W * H).fill(-1);
    var head = (G.starts || []).map(function (s) { return s.slice(); });
    head.forEach(function (h, seat) { cells[h[1] * W + h[0]] = seat; });
    var dead = head.map(function () { return null; });
    owner.push(cells.slice()); heads.push(head.map(function (h) { return h.slice(); })); deaths.push(dead.slice());
    ticks.forEach(function (t) {
      (t.moves || []).forEach(function (m) {
        if (m.death) { dead[m.seat] = { cause: m.death, tick: t.tick }; return; }
        var h = m.head || [];
        if (h.length === 2 && h[0] < W && h[1] < H) { cells[h[1] * W + h[0]] = m.seat; head[m.seat] = h.slice(); }
      });
      owner.push(cells.slice()); heads.push(head.map(function (h) { return h.slice(); })); deaths.push(dead.slice());
    });
    var places = G.places || [];
    var name = view.name;
    view.root.innerHTML = '<div class="board"><section class="lc-grid" aria-label="The grid"><div id="board"></div></section>' +
      view.side('<section aria-label="The cycles and their fuel clocks"><h2>Cycles (fuel clocks)</h2><div id="clocks" class="clocks"></div></section>') +
      "</div>";
    var walls = {};
    (G.walls || []).forEach(function (c) { walls[c] = true; });

    function drawGrid(k) {
      var g = "", o = owner[k];
      for (var c = 0; c < W * H; c++) {
        var x = c % W, y = Math.floor(c / W);
        if (walls[c]) g += '<rect class="wall" x="' + x + '" y="' + y + '" width="1" height="1"/>';
        else if (o[c] >= 0) g += '<rect x="' + x + '" y="' + y + '" width="1" height="1" fill="' + Arena.seatColour(o[c]) + '" opacity=".55"/>';
      }
      heads[k].forEach(function (h, seat) {
        var d = deaths[k][seat];
        if (!d) {
          g += '<rect class="head" x="' + (h[0] + 0.05) + '" y="' + (h[1] + 0.05) + '" width=".9" height=".9" fill="' + Arena.seatColour(seat) + '"><title>' + esc(name(seat)) + "</title></rect>";
        } else {
          g += '<g class="crash"><title>' + esc(name(seat)) + " " + (CAUSES[d.cause] || d.cause) + " at tick " + d.tick + "</title>" +
            '<line x1="' + (h[0] + 0.15) + '" y1="' + (h[1] + 0.15) + '" x2="' + (h[0] + 0.85) + '" y2="' + (h[1] + 0.85) + '"/>' +
            '<line x1="' + (h[0] + 0.85) + '" y1="' + (h[1] + 0.15) + '" x2="' + (h[0] + 0.15) + '" y2="' + (h[1] + 0.85) + '"/></g>';
        }
      });
      $("board").innerHTML = '<svg viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="The grid ' +
        (k === 0 ? "at the start" : "after tick " + k) + '">' + g + "</svg>";
    }

    function moveOf(seat, k) {
      for (var i = k - 1; i >= 0; i--) {
        var m = (ticks[i].moves || []).filter(function (m) { return m.seat === seat; })[0];
        if (m) return m;
      }
      return null;
    }

    function drawClocks(k) {
      $("clocks").innerHTML = names.map(function (n, seat) {
        var m = moveOf(seat, k), d = deaths[k][seat], won = k === last && places[seat] === 1;
        return '<div class="clock' + (d ? " out" : "") + (won ? " winner" : "") + '" style="--seat:' + Arena.seatColour(seat) + '">' +
          '<div class="who">' + esc(name(seat)) + (won ? " ★" : "") + (k === last && places[seat] ? ' <span class="muted">place ' + places[seat] + "</span>" : "") + "</div>" +
          '<div class="fuel">' + (m && m.clock != null ? num(m.clock) : "—") + "</div>" +
          '<div class="note">' + (d ? "crashed at tick " + d.tick + ": " + esc(CAUSES[d.cause] || d.cause) : m && m.fuel != null && k > 0 ? "last tick used " + num(m.fuel) + " fuel" : "&nbsp;") + "</div></div>";
      }).join("");
    }

    function narrate(k) {
      var items = [], title;
      if (k === 0) {
        title = "Before the first tick";
        items.push(["other", "•", names.length + " cycles on a " + W + " × " + H + " grid" + ((G.walls || []).length ? " with " + G.walls.length + " wall cells" : "") + "."]);
      } else {
        var t = ticks[k - 1];
        title = "Tick " + t.tick;
        (t.moves || []).forEach(function (m) {
          if (m.fault) items.push(["fault", "⚠", name(m.seat) + ": " + Arena.fault(m.fault.kind) + (m.fault.detail ? " — " + m.fault.detail : "")]);
          if (m.out) items.push(["fault", "✗", name(m.seat) + " is out: " + (OUTS[m.out] || m.out)]);
          else items.push(["ok", "→", name(m.seat) + " goes " + m.played + (m.fault ? " (the move lost: straight on)" : "")]);
          if (m.death) items.push(["attack", "✕", name(m.seat) + " " + (CAUSES[m.death] || m.death)]);
        });
      }
      if (k === last && G.end) items.push(["win", "★", "The game ends by " + (ENDS[G.end] || G.end) + "."]);
      view.narrate(title, items);
    }

    function logs(k) {
      var list = [];
      if (k > 0) (ticks[k - 1].moves || []).forEach(function (m) { list = list.concat(m.logs || []); });
      return list;
    }

    return {
      last: last,
      draw: function (k) {
        drawGrid(k);
        drawClocks(k);
        narrate(k);
        view.logs(hasLogs ? logs(k) : null);
      },
      position: function (k) { return k === 0 ? "Start (tick 0 of " + last + ")" : "Tick " + k + " of " + last; },
      banner: function () {
        var o = G.outcome || {}, first = names.filter(function (n, s) { return places[s] === 1; });
        return {
          won: o.result === "win",
          text: o.result === "win"
            ? "★ " + name(o.seat) + " wins: " + (ENDS[G.end] || G.end) + ", after " + last + " ticks"
            : "= " + first.join(" and ") + " share first place: " + (ENDS[G.end] || G.end) + ", after " + last + " ticks"
        };
      }
    };
  }

  Arena.viewer({ title: "Light cycles", unit: ["tick", "ticks"], speeds: [2, 4, 8, 16, 32, 64, 128], at: "turn", start: start });
})();
