// The report's front page, drawn from window.ARENA_REPORT (data.js, written by `arena report`).
"use strict";

(function () {
  var esc = Arena.esc;
  var toggleLarge = Arena.setupLargeType();
  document.addEventListener("keydown", function (e) {
    if ((e.key === "l" || e.key === "L") && !/INPUT|TEXTAREA/.test(e.target.tagName)) toggleLarge();
  });

  var R = window.ARENA_REPORT;
  if (!R) {
    var err = document.getElementById("load-error");
    err.hidden = false;
    err.textContent = "data.js is missing or unreadable: run `arena report RESULTS_DIR` to write it again.";
    return;
  }
  var agents = R.agents || [];
  var order = {};
  agents.forEach(function (a, i) { order[a.name] = i; });

  document.title = R.league + " — league report";
  document.getElementById("title").textContent = R.league;
  var s = R.settings || {};
  document.getElementById("summary").textContent =
    agents.length + " agents, " + R.games_total + " games" +
    (s.players_per_game ? " of " + s.players_per_game + " players" : "") +
    (R.mean_rounds != null ? ", mean length " + Number(R.mean_rounds).toFixed(1) + " rounds" : "") + ".";

  function replayLink(id, text) {
    return '<a href="replay.html?game=' + id + '">' + esc(text) + "</a>";
  }
  function signed(x) {
    var r = Math.round(x);
    return (r > 0 ? "+" : r < 0 ? "−" : "") + Math.abs(r);
  }
  function pct(x) { return (100 * x).toFixed(1); }
  function faultText(f) {
    var keys = Object.keys(f || {});
    if (!keys.length) return "none";
    return keys.map(function (k) { return k.replace(/_/g, " ") + " " + f[k]; }).join(", ");
  }

  // Standings table.
  (function () {
    var h = "<caption class=\"sr\">Standings</caption><thead><tr>" +
      ["Rank", "Agent", "Games", "Wins", "Draws", "Losses", "Win %", "95% interval", "Rating", "±", "Mean rounds", "Faults"]
        .map(function (c) { return "<th scope=\"col\">" + c + "</th>"; }).join("") + "</tr></thead><tbody>";
    agents.forEach(function (a, i) {
      h += "<tr data-agent=\"" + esc(a.name) + "\">" +
        "<td data-k=\"rank\">" + a.rank + "</td>" +
        "<th scope=\"row\" data-k=\"name\">" + esc(a.name) + "</th>" +
        "<td data-k=\"games\">" + a.games + "</td>" +
        "<td data-k=\"wins\">" + a.wins + "</td>" +
        "<td data-k=\"draws\">" + a.draws + "</td>" +
        "<td data-k=\"losses\">" + a.losses + "</td>" +
        "<td data-k=\"win_rate\">" + pct(a.win_rate) + "</td>" +
        "<td data-k=\"win_rate_ci\">" + pct(a.win_rate_low) + "–" + pct(a.win_rate_high) + "</td>" +
        "<td data-k=\"rating\">" + signed(a.rating) + "</td>" +
        "<td data-k=\"rating_error\">" + Math.round(a.rating_error) + "</td>" +
        "<td data-k=\"mean_rounds\">" + Number(a.mean_rounds).toFixed(1) + "</td>" +
        "<td data-k=\"faults\" class=\"text\">" + esc(faultText(a.faults)) + "</td></tr>";
    });
    document.getElementById("standings").innerHTML = h + "</tbody>";
  })();

  // Ratings with error bars.
  (function () {
    if (!agents.length) return;
    var lo = Math.min(0, Math.min.apply(null, agents.map(function (a) { return a.rating - a.rating_error; })));
    var hi = Math.max(0, Math.max.apply(null, agents.map(function (a) { return a.rating + a.rating_error; })));
    var step = niceStep((hi - lo) / 6);
    lo = Math.floor(lo / step) * step;
    hi = Math.ceil(hi / step) * step;
    if (hi === lo) { hi += 100; lo -= 100; }
    var W = 900, left = 190, right = 120, rowH = 34, top = 14, H = top + agents.length * rowH + 36;
    function x(v) { return left + (v - lo) / (hi - lo) * (W - left - right); }
    var g = "";
    for (var t = lo; t <= hi + 1e-9; t += step) {
      g += '<line class="grid" x1="' + x(t) + '" x2="' + x(t) + '" y1="' + top + '" y2="' + (H - 30) + '"/>' +
        '<text class="tick" x="' + x(t) + '" y="' + (H - 10) + '" text-anchor="middle">' + signed(t) + "</text>";
    }
    g += '<line class="zero" x1="' + x(0) + '" x2="' + x(0) + '" y1="' + top + '" y2="' + (H - 30) + '"/>';
    agents.forEach(function (a, i) {
      var y = top + i * rowH + rowH / 2, c = "#0072B2";
      var x1 = x(a.rating - a.rating_error), x2 = x(a.rating + a.rating_error);
      g += "<g><title>" + esc(a.name) + ": " + signed(a.rating) + " ± " + Math.round(a.rating_error) + "</title>" +
        '<text class="label" x="' + (left - 12) + '" y="' + (y + 6) + '" text-anchor="end">' + esc(a.rank + ". " + a.name) + "</text>" +
        '<line class="bar" x1="' + x1 + '" x2="' + x2 + '" y1="' + y + '" y2="' + y + '" stroke="' + c + '"/>' +
        '<line class="cap" x1="' + x1 + '" x2="' + x1 + '" y1="' + (y - 9) + '" y2="' + (y + 9) + '" stroke="' + c + '"/>' +
        '<line class="cap" x1="' + x2 + '" x2="' + x2 + '" y1="' + (y - 9) + '" y2="' + (y + 9) + '" stroke="' + c + '"/>' +
        '<circle cx="' + x(a.rating) + '" cy="' + y + '" r="7" fill="' + c + '" stroke="#111" stroke-width="2"/>' +
        '<text class="value" x="' + (W - right + 12) + '" y="' + (y + 6) + '">' + signed(a.rating) + " ± " + Math.round(a.rating_error) + "</text></g>";
    });
    document.getElementById("ratings").innerHTML =
      '<svg viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="Ratings with 95% intervals">' + g + "</svg>";
  })();

  function niceStep(raw) {
    var p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
    var m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }

  // Orange (#b35806) - white - blue (#2166ac): a diverging scale safe for colour-blind readers.
  function heat(f) {
    var a = [179, 88, 6], m = [247, 247, 247], b = [33, 102, 172];
    var from = f < 0.5 ? a : m, to = f < 0.5 ? m : b, t = f < 0.5 ? f * 2 : (f - 0.5) * 2;
    var c = from.map(function (v, i) { return Math.round(v + (to[i] - v) * t); });
    var lum = (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255;
    return { bg: "rgb(" + c.join(",") + ")", fg: lum < 0.55 ? "#fff" : "#111" };
  }
  function half(x) {
    var whole = Math.floor(x), frac = x - whole;
    return frac > 0.25 && frac < 0.75 ? (whole ? whole : "") + "½" : String(Math.round(x));
  }

  // Cross-table heat map.
  (function () {
    var cross = R.cross || [];
    var h = "<thead><tr><th scope=\"col\"><span class=\"sr\">row against column</span></th>" +
      agents.map(function (a) { return "<th scope=\"col\" title=\"" + esc(a.name) + "\">" + esc(a.name) + "</th>"; }).join("") +
      "<th scope=\"col\">Total</th></tr></thead><tbody>";
    agents.forEach(function (a, i) {
      var pts = 0, games = 0;
      h += "<tr><th scope=\"row\">" + esc(a.name) + "</th>";
      agents.forEach(function (b, j) {
        var c = (cross[i] || [])[j];
        if (i === j || !c || !c.games) {
          h += "<td class=\"diag\" aria-label=\"no games\">—</td>";
          return;
        }
        pts += c.points; games += c.games;
        var f = c.points / c.games, col = heat(f);
        h += "<td style=\"background:" + col.bg + ";color:" + col.fg + "\" title=\"" + esc(a.name + " against " + b.name) +
          "\"><b>" + half(c.points) + "/" + c.games + "</b><small>" + Math.round(100 * f) + "%</small></td>";
      });
      h += "<td class=\"total\">" + half(pts) + "/" + games + "</td></tr>";
    });
    document.getElementById("cross").innerHTML = h + "</tbody>";
    var stops = [0, 0.25, 0.5, 0.75, 1].map(function (f) { return heat(f).bg + " " + (f * 100) + "%"; });
    document.getElementById("cross-legend").innerHTML =
      "<span>0% (row always loses)</span><span class=\"ramp\" style=\"background:linear-gradient(to right," + stops.join(",") +
      ")\"></span><span>100% (row always wins)</span>";
  })();

  // Game length histogram.
  (function () {
    var L = R.lengths || { bins: [] }, bins = L.bins || [];
    if (!bins.length) { document.getElementById("lengths").textContent = "No games."; return; }
    var max = Math.max.apply(null, bins.map(function (b) { return b.wins + b.draws; }));
    var ystep = niceStep(max / 5) || 1;
    if (ystep < 1) ystep = 1;
    var ymax = Math.max(ystep, Math.ceil(max / ystep) * ystep);
    var W = 900, H = 340, left = 60, right = 20, top = 16, bottom = 64;
    var bw = (W - left - right) / bins.length;
    function y(v) { return top + (1 - v / ymax) * (H - top - bottom); }
    var g = '<defs><pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<rect width="8" height="8" fill="#E69F00"/><line x1="0" y1="0" x2="0" y2="8" stroke="#7a4d00" stroke-width="3"/></pattern></defs>';
    for (var t = 0; t <= ymax; t += ystep) {
      g += '<line class="grid" x1="' + left + '" x2="' + (W - right) + '" y1="' + y(t) + '" y2="' + y(t) + '"/>' +
        '<text class="tick" x="' + (left - 8) + '" y="' + (y(t) + 5) + '" text-anchor="end">' + t + "</text>";
    }
    var labelEvery = Math.ceil(bins.length / 10);
    bins.forEach(function (b, i) {
      var x0 = left + i * bw + 2, w = Math.max(1, bw - 4);
      var label = b.from === b.to ? String(b.from) : b.from + "–" + b.to;
      g += "<g><title>" + label + " rounds: " + b.wins + " won, " + b.draws + " drawn</title>";
      if (b.wins) g += '<rect x="' + x0 + '" y="' + y(b.wins) + '" width="' + w + '" height="' + (y(0) - y(b.wins)) + '" fill="#0072B2" stroke="#111"/>';
      if (b.draws) g += '<rect x="' + x0 + '" y="' + y(b.wins + b.draws) + '" width="' + w + '" height="' + (y(b.wins) - y(b.wins + b.draws)) + '" fill="url(#hatch)" stroke="#111"/>';
      if (b.wins + b.draws) g += '<text class="count" x="' + (x0 + w / 2) + '" y="' + (y(b.wins + b.draws) - 6) + '" text-anchor="middle">' + (b.wins + b.draws) + "</text>";
      g += "</g>";
      if (i % labelEvery === 0) g += '<text class="tick" x="' + (x0 + w / 2) + '" y="' + (H - bottom + 22) + '" text-anchor="middle">' + label + "</text>";
    });
    g += '<line class="axis" x1="' + left + '" x2="' + (W - right) + '" y1="' + y(0) + '" y2="' + y(0) + '"/>' +
      '<text class="axis-label" x="' + ((left + W - right) / 2) + '" y="' + (H - 12) + '" text-anchor="middle">length in rounds</text>';
    var won = 0, drawn = 0;
    bins.forEach(function (b) { won += b.wins; drawn += b.draws; });
    document.getElementById("lengths").innerHTML =
      '<svg viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="Histogram of game lengths: ' + won + " won, " + drawn + ' drawn">' + g + "</svg>" +
      '<figcaption class="legend"><span class="key solid"></span> won (' + won + ')<span class="key hatched"></span> drawn (' + drawn + ")</figcaption>";
  })();

  // Faults per agent, grouped by reason.
  (function () {
    var list = R.faults || [], h = "";
    var any = list.some(function (f) { return f.total > 0; });
    if (!any) { document.getElementById("faults").innerHTML = "<p>No agent faulted.</p>"; return; }
    var clean = list.filter(function (f) { return !f.total; }).map(function (f) { return esc(f.agent); });
    if (clean.length) h += "<p><strong>No faults:</strong> " + clean.join(", ") + ".</p>";
    list.forEach(function (f) {
      if (!f.total) return;
      h += "<h3>" + esc(f.agent) + " — " + f.total + " fault" + (f.total === 1 ? "" : "s") + "</h3>" +
        "<div class=\"scroll\"><table class=\"faults\"><thead><tr><th scope=\"col\">Times</th><th scope=\"col\">In the</th><th scope=\"col\">Kind</th><th scope=\"col\">Detail</th><th scope=\"col\">Games (replay)</th></tr></thead><tbody>";
      f.reasons.forEach(function (r) {
        h += "<tr><td class=\"num\">" + r.count + "</td><td>" + esc(Arena.decision(r.decision)) + "</td><td>" +
          esc(Arena.fault(r.kind)) + "</td><td><code>" + esc(r.detail) + "</code></td><td>" +
          r.games.map(function (id) { return replayLink(id, "#" + id); }).join(" ") +
          (r.games.length < r.count ? " …" : "") + "</td></tr>";
      });
      h += "</tbody></table></div>";
    });
    document.getElementById("faults").innerHTML = h;
  })();

  // Settings.
  (function () {
    var rows = [];
    function add(k, v) {
      if (v && typeof v === "object" && !Array.isArray(v)) {
        Object.keys(v).forEach(function (kk) { add(k ? k + "." + kk : kk, v[kk]); });
      } else if (k !== "agents") {
        rows.push("<tr><th scope=\"row\">" + esc(k) + "</th><td><code>" + esc(v === null ? "—" : JSON.stringify(v)) + "</code></td></tr>");
      }
    }
    add("", s);
    var h = "<table class=\"settings\"><tbody>" + rows.join("") + "</tbody></table>";
    if (Array.isArray(s.agents)) {
      h += "<h3>Agents</h3><table class=\"settings\"><thead><tr><th scope=\"col\">Agent</th><th scope=\"col\">SHA-256 of its code</th></tr></thead><tbody>" +
        s.agents.map(function (a) {
          return "<tr><th scope=\"row\">" + esc(a.name) + "</th><td><code class=\"hash\">" + esc(a.sha256 || "— (native)") + "</code></td></tr>";
        }).join("") + "</tbody></table>";
    }
    document.getElementById("settings").innerHTML = h;
  })();

  // Every game.
  (function () {
    var games = R.games || [];
    var table = document.getElementById("games");
    function seatList(g) {
      return g.seats.map(function (n, i) {
        var out = g.forfeits.indexOf(n) >= 0;
        return "<span class=\"seat\"><span class=\"swatch\" style=\"background:" + Arena.seatColour(i) + "\"></span>" +
          i + ": " + esc(n) + (out ? " <em>(forfeited)</em>" : "") + "</span>";
      }).join(" ");
    }
    function draw(filter) {
      var f = (filter || "").trim().toLowerCase(), shown = 0;
      var h = "<thead><tr><th scope=\"col\">Game</th><th scope=\"col\">Seats</th><th scope=\"col\">Winner</th><th scope=\"col\">Result</th><th scope=\"col\">Rounds</th><th scope=\"col\">Faults</th><th scope=\"col\">Replay</th><th scope=\"col\">Record</th></tr></thead><tbody>";
      games.forEach(function (g) {
        if (f && !g.seats.some(function (n) { return n.toLowerCase().indexOf(f) >= 0; })) return;
        shown++;
        h += "<tr data-game=\"" + g.id + "\"><td>" + g.id + "</td><td class=\"text\">" + seatList(g) + "</td><td class=\"text\">" +
          (g.winner ? "<strong>" + esc(g.winner) + "</strong>" : "—") + "</td><td class=\"text\">" + esc(Arena.result(g.result)) +
          "</td><td>" + g.rounds + "</td><td class=\"text\">" +
          (g.faults.length ? g.faults.map(function (x) { return esc(x.agent + ": " + x.kind.replace(/_/g, " ")); }).join("<br>") : "—") +
          "</td><td class=\"text\">" + (g.data ? replayLink(g.id, "▶ replay") : "<span class=\"error\">" + esc(g.error || "no data") + "</span>") +
          "</td><td class=\"text\"><a href=\"" + esc(g.record) + "\">" + esc(g.record.split("/").pop()) + "</a></td></tr>";
      });
      table.innerHTML = h + "</tbody>";
      document.getElementById("game-count").textContent = shown + " of " + games.length + " games";
    }
    var input = document.getElementById("game-filter");
    input.addEventListener("input", function () { draw(input.value); });
    draw("");
  })();
})();
