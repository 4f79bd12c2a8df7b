// The code war viewer's own part (the chrome, report/viewer/viewer.js, loads the game's replay
// data, made by the arena's games::codewar::replay from the record, and runs the controls;
// ?iteration=end|N picks the first frame): the Array over time as a grid, a row per iteration, a
// column per cell, the owner's colour, the facade when it differs, a dot for a visit and a cross
// for a segfault; the visits of the current iteration, the cells each player owns, and the visit
// of a clicked cell. Frame k shows the rows of iterations 1..k.
"use strict";

(function () {
  var esc = Arena.esc;
  var $ = function (x) { return document.getElementById(x); };
  var SVG = "http://www.w3.org/2000/svg";
  var LAYOUT = '<p id="facts" class="summary"></p><p id="legend" class="legend"></p>' +
    '<p class="hint">A row per iteration (the first at the top), a column per cell: its owner\'s colour after the iteration, ' +
    "an inner square in another colour when the agent shows another player's facade, a dot where an agent ran, a cross " +
    "where one segfaulted. Click a cell for its visit.</p>" +
    '<div class="grid-box"><svg id="grid" class="grid" role="img" aria-label="The Array after each iteration"></svg></div>' +
    '<div class="panels"><section aria-label="Cells owned"><h2 id="counts-title">Cells owned</h2><table id="counts" class="numbers"></table></section>' +
    '<section aria-label="The selected cell"><h2>Cell</h2><p id="picked" class="muted">Click a cell of the grid.</p></section></div>' +
    '<section aria-label="The visits of this iteration"><h2 id="visits-title">Visits</h2>' +
    '<div class="scroll"><table id="visits" class="visits numbers"></table></div></section>';

  var SEGFAULTS = {
    too_big: "larger than the maximal size", invalid: "not a valid module", no_entry: "no codewar_run export",
    bad_import: "an import the arena does not provide", trap: "trapped", fuel: "ran out of fuel",
    stack: "exhausted the stack", memory: "memory or table too large", timeout: "wall-clock backstop",
    write_too_big: "handed the host more than the maximal size"
  };
  var EFFECTS = {
    done: "", empty: " — nothing: empty", occupied: " — failed: another player's agent",
    unstaged: " — nothing staged", nothing: ""
  };

  function el(name, attrs) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function signed(x) { return x > 0 ? "+" + x : String(x); }

  function mark(seat) { return String.fromCharCode(65 + (seat % 26)); }

  function start(G, view) {
    var names = G.players || [], iters = G.iterations || [], S = G.settings || {};
    var n = S.array_size || (iters[0] && iters[0].cells.length) || 0;
    var last = iters.length;
    var picked = null;

    var name = view.name, who = view.who;
    function describe(v) {
      // [cell, owner, what, ...]
      var what = v[2];
      if (what === "segfault") return "✗ segfault: " + (SEGFAULTS[v[3]] || v[3]) + (v[4] ? " (" + v[4] + ")" : "");
      if (what === "noop") return "no-op";
      if (what === "copy") return "copy " + signed(v[3]) + " → " + signed(v[4]) + (EFFECTS[v[5]] || "");
      return what + " " + signed(v[3]) + (EFFECTS[v[4]] || "");
    }

    view.root.innerHTML = LAYOUT;
    $("facts").textContent = "An Array of " + n + " cells, agents of at most " + S.max_size + " bytes" +
      (S.mambo_step ? " (Mambo: " + S.mambo_step + " fewer each iteration)" : "") + ", " + S.iterations +
      " iterations, re-entry every " + (S.reentry_every || "—") + ", seed " + G.seed + ".";
    $("legend").innerHTML = names.map(function (nm, i) { return who(i); }).join("") +
      '<span><span class="key-facade" style="background:#f3f3f3"></span>empty</span>';

    // The grid: built once, rows revealed as the replay goes.
    var W = 10, H = 10, LEFT = 30, TOP = 14;
    var grid = $("grid");
    grid.setAttribute("width", LEFT + n * W + 4);
    grid.setAttribute("height", TOP + last * H + 4);
    for (var c = 0; c < n; c += 10) {
      var t = el("text", { x: LEFT + c * W, y: 10, "class": "label" });
      t.textContent = c;
      grid.appendChild(t);
    }
    var rows = iters.map(function (it, r) {
      var g = el("g", { "class": "row future", "data-iteration": it.iteration });
      var label = el("text", { x: 0, y: TOP + r * H + 8, "class": "label" });
      label.textContent = it.iteration;
      g.appendChild(label);
      var visited = {};
      (it.visits || []).forEach(function (v) { visited[v[0]] = v; });
      (it.cells || []).forEach(function (cell, i) {
        var x = LEFT + i * W, y = TOP + r * H;
        var rect = el("rect", {
          x: x, y: y, width: W, height: H, "class": "cell" + (cell ? "" : " empty"),
          "data-cell": i, fill: cell ? Arena.seatColour(cell[0]) : "#f3f3f3"
        });
        var title = el("title", {});
        title.textContent = "iteration " + it.iteration + ", cell " + i + ": " +
          (cell ? "owner " + mark(cell[0]) + " " + name(cell[0]) + (cell[1] !== cell[0] ? ", facade " + mark(cell[1]) : "") + ", module " + cell[2] : "empty") +
          (visited[i] ? "; visit: " + describe(visited[i]) : "");
        rect.appendChild(title);
        g.appendChild(rect);
        if (cell && cell[1] !== cell[0]) {
          g.appendChild(el("rect", { x: x + 3, y: y + 3, width: W - 6, height: H - 6, "class": "facade", fill: Arena.seatColour(cell[1]) }));
        }
        var v = visited[i];
        if (v && v[2] === "segfault") {
          g.appendChild(el("path", { d: "M" + (x + 2) + " " + (y + 2) + "l6 6m0 -6l-6 6", "class": "segfault" }));
        } else if (v) {
          g.appendChild(el("circle", { cx: x + W / 2, cy: y + H / 2, r: 1.3, "class": "visit" }));
        }
        rect.addEventListener("click", function () { pick(r, i); });
      });
      grid.appendChild(g);
      return g;
    });
    var pickMark = el("rect", { "class": "picked", width: W, height: H, visibility: "hidden" });
    grid.appendChild(pickMark);

    function pick(r, i) {
      picked = [r, i];
      var it = iters[r], cell = it.cells[i];
      var v = (it.visits || []).filter(function (x) { return x[0] === i; })[0];
      pickMark.setAttribute("x", LEFT + i * W);
      pickMark.setAttribute("y", TOP + r * H);
      pickMark.setAttribute("visibility", "visible");
      var module = cell && G.modules ? G.modules[cell[2]] : null;
      $("picked").innerHTML = "Cell " + i + " after iteration " + it.iteration + ": " +
        (cell ? who(cell[0]) + (cell[1] !== cell[0] ? ", showing the facade of " + who(cell[1]) : "") +
          (module ? ", module " + cell[2] + " (" + module.size + " bytes, " + esc(String(module.hash).slice(0, 12)) + "…)" : "")
          : "empty") + ". " +
        (v ? "Its visit: " + who(v[1]) + " " + esc(describe(v)) + "." : "No visit in this iteration.");
      $("picked").className = "";
    }

    function draw(k) {
      rows.forEach(function (g, r) {
        g.setAttribute("class", "row" + (r < k - 1 ? "" : r === k - 1 ? " now" : " future"));
      });
      if (picked && picked[0] >= k) { pickMark.setAttribute("visibility", "hidden"); }
      var it = iters[k - 1];
      // Cells owned after this iteration.
      var counts = names.map(function () { return 0; });
      (it ? it.cells : []).forEach(function (cell) { if (cell && counts[cell[0]] != null) counts[cell[0]]++; });
      var out = {};
      iters.slice(0, k).forEach(function (x) {
        (x.out_before || []).concat(x.out_after || []).forEach(function (s) { out[s] = x.iteration; });
      });
      $("counts").innerHTML = "<thead><tr><th>player</th><th>cells</th><th></th></tr></thead><tbody>" +
        names.map(function (nm, s) {
          return "<tr data-seat=\"" + s + "\"><td>" + who(s) + "</td><td>" + counts[s] + "</td><td>" +
            (out[s] != null ? "✗ out at iteration " + out[s] : "") + "</td></tr>";
        }).join("") + "</tbody>";
      // Its visits.
      $("visits-title").textContent = it ? "Visits of iteration " + it.iteration + " (" + (it.visits || []).length + ")" : "Visits";
      var entered = it ? (it.entered || []).map(function (e) {
        return "<tr><td>" + (e.cell == null ? "—" : e.cell) + "</td><td>" + who(e.seat) + "</td><td>" +
          (e.cell == null ? "its module was discarded (no empty cell, none of its own)" :
            e.replaced ? "its module entered, replacing one of its agents" : "its module entered") + "</td></tr>";
      }).join("") : "";
      $("visits").innerHTML = it ? "<thead><tr><th>cell</th><th>agent of</th><th>what it did</th></tr></thead><tbody>" + entered +
        (it.visits || []).map(function (v) {
          return "<tr class=\"" + (v[2] === "segfault" ? "seg" : "") + "\" data-cell=\"" + v[0] + "\"><td>" + v[0] +
            "</td><td>" + who(v[1]) + "</td><td>" + esc(describe(v)) + "</td></tr>";
        }).join("") + "</tbody>" : "";
    }

    return {
      last: last,
      draw: draw,
      position: function (k) {
        var it = iters[k - 1];
        return k === 0 ? "Start (iteration 0 of " + last + ")" : "Iteration " + it.iteration + " of " + last + " · S = " + it.max_size + " bytes";
      },
      banner: function () {
        var E = G.end || {}, o = E.outcome || {};
        return {
          won: o.result === "win",
          text: o.result === "win"
            ? "★ " + mark(o.seat) + " " + name(o.seat) + " wins" + (o.last_standing ? " as the last player left" : " with " + (E.cells || [])[o.seat] + " cells") + " after " + E.iterations + " iterations"
            : o.round_cap ? "= Draw: the most cells are shared after " + E.iterations + " iterations" : "= Draw: no player has a cell"
        };
      }
    };
  }

  Arena.viewer({
    title: "Code war", unit: ["iteration", "iterations"], speeds: [1, 2, 4, 8, 16, 32], at: "iteration", start: start,
    // A player is also named by its letter, as in the grid's cells.
    who: function (seat, name) {
      return '<span class="who"><span class="swatch" style="background:' + Arena.seatColour(seat) + '"></span>' +
        mark(seat) + " " + esc(name(seat)) + "</span>";
    }
  });
})();
