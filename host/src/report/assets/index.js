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
  var B = R.benchmark;
  var solo = !!(B && B.agents);
  Array.prototype.forEach.call(document.querySelectorAll("[data-mode]"), function (el) {
    el.hidden = (el.getAttribute("data-mode") === "solo") !== solo;
  });
  var games = Arena.gameRows(R.games);

  document.title = R.league + " — league report";
  document.getElementById("title").textContent = R.league;
  var s = R.settings || {};
  var game = Arena.game(s.game);
  // What a solo game plays for (turns to reach it are the measure).
  var target = game.solo_target || "the target";
  Array.prototype.forEach.call(document.querySelectorAll("[data-target]"), function (el) {
    el.textContent = target;
  });
  document.getElementById("summary").textContent = solo
    ? agents.length + " agents, " + R.games_total + " solo games of " + game.title +
      " (each agent plays alone; the measure is turns to reach " + target + ")."
    : agents.length + " agents, " + R.games_total + " games" +
      (s.game ? " of " + game.title : "") +
      (s.players_per_game ? " (" + s.players_per_game + " players a game)" : "") +
      (R.mean_rounds != null ? ", mean length " + Number(R.mean_rounds).toFixed(1) + " rounds" : "") + ".";

  // Games decided by the wall-clock backstop: the league may not reproduce on another machine.
  if (R.machine_dependent_games) {
    var timed = games.ids(games.matching(function (i) {
      return games.faults(i).some(function (f) { return f.kind === "timeout"; });
    }));
    var warn = document.getElementById("machine-dependent");
    warn.hidden = false;
    warn.textContent = R.machine_dependent_games + (R.machine_dependent_games === 1 ? " game" : " games") +
      " had a wall-clock timeout (" + (timed.length > 20 ? "games " + timed.slice(0, 20).join(", ") + ", …" : "games " + timed.join(", ")) +
      "): how they went depends on this machine's speed and load, so these results may not be reproduced elsewhere.";
  }
  if (R.unplayed_games) {
    document.getElementById("summary").textContent += " " + R.unplayed_games +
      (R.unplayed_games === 1 ? " game" : " games") + " could not be played by any agent and count for nobody.";
  }

  // Each game opens in its game's viewer.
  function viewer(id) {
    var g = games.byId(id);
    return (Arena.viewerPage(g && g.game) || Arena.viewerPage(s.game)) + "?game=" + id;
  }
  function replayLink(id, text) {
    return '<a href="' + viewer(id) + '">' + esc(text) + "</a>";
  }
  // Room at the left of a chart for labels "rank. name" (18 px type, about 11 px a character).
  function labelRoom(list) {
    var longest = Math.max.apply(null, list.map(function (a) { return String(a.rank + ". " + a.name).length; }));
    return Math.min(400, Math.max(190, 24 + 11 * longest));
  }
  function fixed(x, d) { return x == null ? "—" : Number(x).toFixed(d); }
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

  // Solo benchmark: table, comparison plot and one histogram per agent.
  (function () {
    if (!solo) return;
    var list = B.agents;
    var faultsOf = {};
    agents.forEach(function (a) { faultsOf[a.name] = a.faults; });
    var colour = {};
    list.forEach(function (a, i) { colour[a.name] = Arena.seatColour(i); });

    var h = "<caption class=\"sr\">Turns to " + esc(target) + "</caption><thead><tr>" +
      ["Rank", "Agent", "Games", "Reached", "Mean turns", "SD", "95% interval of the mean", "Median", "Quartiles", "Min–max", "Faults"]
        .map(function (c) { return "<th scope=\"col\">" + c + "</th>"; }).join("") + "</tr></thead><tbody>";
    list.forEach(function (a) {
      h += "<tr data-agent=\"" + esc(a.name) + "\">" +
        "<td data-k=\"rank\">" + a.rank + "</td>" +
        "<th scope=\"row\" data-k=\"name\"><span class=\"swatch\" style=\"background:" + colour[a.name] + "\"></span>" + esc(a.name) + "</th>" +
        "<td data-k=\"games\">" + a.games + "</td>" +
        "<td data-k=\"reached\">" + a.reached + (a.reached < a.games ? " <strong>(" + pct(a.reached_rate) + "%)</strong>" : "") + "</td>" +
        "<td data-k=\"mean\"><strong>" + fixed(a.mean, 2) + "</strong></td>" +
        "<td data-k=\"sd\">" + fixed(a.sd, 2) + "</td>" +
        "<td data-k=\"mean_ci\">" + (a.mean_error == null ? "—" : fixed(a.mean - a.mean_error, 2) + "–" + fixed(a.mean + a.mean_error, 2)) + "</td>" +
        "<td data-k=\"median\">" + fixed(a.median, 1) + "</td>" +
        "<td data-k=\"quartiles\">" + (a.q1 == null ? "—" : fixed(a.q1, 1) + "–" + fixed(a.q3, 1)) + "</td>" +
        "<td data-k=\"range\">" + (a.min == null ? "—" : a.min + "–" + a.max) + "</td>" +
        "<td data-k=\"faults\" class=\"text\">" + esc(faultText(faultsOf[a.name])) + "</td></tr>";
    });
    document.getElementById("benchmark").innerHTML = h + "</tbody>";

    var withData = list.filter(function (a) { return a.min != null; });
    if (!withData.length) {
      document.getElementById("bench-compare").textContent = "No agent reached " + target + ".";
      return;
    }
    var lo = Math.min.apply(null, withData.map(function (a) { return a.min; }));
    var hi = Math.max.apply(null, withData.map(function (a) { return a.max; }));
    var step = Math.max(1, niceStep((hi - lo + 1) / 8));
    var x0 = Math.max(0, Math.floor((lo - 1) / step) * step), x1 = Math.ceil((hi + 1) / step) * step;

    // Comparison: box plots on one axis.
    (function () {
      var W = 900, left = labelRoom(list), right = 170, rowH = 46, top = 14, H = top + list.length * rowH + 40;
      function x(v) { return left + (v - x0) / (x1 - x0) * (W - left - right); }
      var g = "";
      for (var t = x0; t <= x1 + 1e-9; t += step) {
        g += '<line class="grid" x1="' + x(t) + '" x2="' + x(t) + '" y1="' + top + '" y2="' + (H - 34) + '"/>' +
          '<text class="tick" x="' + x(t) + '" y="' + (H - 16) + '" text-anchor="middle">' + t + "</text>";
      }
      g += '<text class="axis-label" x="' + ((left + W - right) / 2) + '" y="' + (H - 1) + '" text-anchor="middle">turns to reach ' + esc(target) + ' (fewer is better)</text>';
      list.forEach(function (a, i) {
        var y = top + i * rowH + rowH / 2 - 4, c = colour[a.name];
        g += "<g><title>" + esc(a.name) + ": " + (a.mean == null ? "never reached " + target :
          "mean " + fixed(a.mean, 2) + ", sd " + fixed(a.sd, 2) + ", median " + fixed(a.median, 1) + ", quartiles " + fixed(a.q1, 1) + "–" + fixed(a.q3, 1) +
          ", range " + a.min + "–" + a.max + ", " + a.reached + " of " + a.games + " games reached") + "</title>" +
          '<text class="label" x="' + (left - 12) + '" y="' + (y + 6) + '" text-anchor="end">' + esc(a.rank + ". " + a.name) + "</text>";
        if (a.min != null) {
          g += '<line class="whisker" x1="' + x(a.min) + '" x2="' + x(a.max) + '" y1="' + y + '" y2="' + y + '"/>' +
            '<line class="whisker" x1="' + x(a.min) + '" x2="' + x(a.min) + '" y1="' + (y - 8) + '" y2="' + (y + 8) + '"/>' +
            '<line class="whisker" x1="' + x(a.max) + '" x2="' + x(a.max) + '" y1="' + (y - 8) + '" y2="' + (y + 8) + '"/>' +
            '<rect x="' + x(a.q1) + '" y="' + (y - 12) + '" width="' + Math.max(1, x(a.q3) - x(a.q1)) + '" height="24" fill="' + c + '" fill-opacity="0.55" stroke="#111" stroke-width="2"/>' +
            '<line class="median" x1="' + x(a.median) + '" x2="' + x(a.median) + '" y1="' + (y - 12) + '" y2="' + (y + 12) + '"/>';
          if (a.mean_error != null) {
            g += '<line class="ci" x1="' + x(a.mean - a.mean_error) + '" x2="' + x(a.mean + a.mean_error) + '" y1="' + (y + 17) + '" y2="' + (y + 17) + '"/>';
          }
          var m = x(a.mean);
          g += '<path class="mean" d="M' + m + " " + (y - 8) + " L" + (m + 8) + " " + y + " L" + m + " " + (y + 8) + " L" + (m - 8) + " " + y + ' Z"/>';
        }
        g += '<text class="value" x="' + (W - right + 12) + '" y="' + (y + 6) + '">' +
          (a.mean == null ? "not reached" : fixed(a.mean, 1) + (a.sd == null ? "" : " ± " + fixed(a.sd, 1))) +
          (a.reached < a.games ? " (" + a.reached + "/" + a.games + ")" : "") + "</text></g>";
      });
      document.getElementById("bench-compare").innerHTML =
        '<svg viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="Turns to ' + esc(target) + ' per agent: box plots with means">' + g + "</svg>";
    })();

    // One histogram per agent, same axes for all.
    (function () {
      var width = [1, 2, 5, 10, 20, 50, 100].find(function (w) { return (x1 - x0) / w <= 45; }) || Math.ceil((x1 - x0) / 45);
      var first = Math.floor(x0 / width) * width, count = Math.ceil((x1 - first + 1) / width);
      function bins(a) {
        var b = [];
        for (var i = 0; i < count; i++) b.push(0);
        a.histogram.forEach(function (bin) {
          var k = Math.floor((bin.turns - first) / width);
          if (k >= 0 && k < count) b[k] += bin.games;
        });
        return b;
      }
      var all = list.map(bins);
      var ymaxRaw = Math.max(1, Math.max.apply(null, all.map(function (b) { return Math.max.apply(null, b); })));
      var ystep = Math.max(1, niceStep(ymaxRaw / 4)), ymax = Math.ceil(ymaxRaw / ystep) * ystep;
      var W = 600, H = 230, left = 46, right = 12, top = 10, bottom = 44;
      function x(v) { return left + (v - first) / (count * width) * (W - left - right); }
      function y(v) { return top + (1 - v / ymax) * (H - top - bottom); }
      var h = "";
      list.forEach(function (a, i) {
        var b = all[i], c = colour[a.name], g = "";
        for (var t = 0; t <= ymax; t += ystep) {
          g += '<line class="grid" x1="' + left + '" x2="' + (W - right) + '" y1="' + y(t) + '" y2="' + y(t) + '"/>' +
            '<text class="tick" x="' + (left - 6) + '" y="' + (y(t) + 5) + '" text-anchor="end">' + t + "</text>";
        }
        b.forEach(function (n, k) {
          var from = first + k * width, to = from + width - 1;
          if (n) {
            g += "<rect x=\"" + (x(from) + 0.5) + "\" y=\"" + y(n) + "\" width=\"" + Math.max(1, x(from + width) - x(from) - 1) + "\" height=\"" + (y(0) - y(n)) +
              "\" fill=\"" + c + "\" stroke=\"#111\"><title>" + (width === 1 ? from : from + "–" + to) + " turns: " + n + " game" + (n === 1 ? "" : "s") + "</title></rect>";
          }
        });
        for (var t2 = x0; t2 <= x1; t2 += step) {
          g += '<text class="tick" x="' + x(t2 + 0.5) + '" y="' + (H - bottom + 20) + '" text-anchor="middle">' + t2 + "</text>";
        }
        g += '<line class="axis" x1="' + left + '" x2="' + (W - right) + '" y1="' + y(0) + '" y2="' + y(0) + '"/>' +
          '<text class="axis-label" x="' + ((left + W - right) / 2) + '" y="' + (H - 4) + '" text-anchor="middle">turns to ' + esc(target) + '</text>';
        if (a.mean != null) {
          // Marks at the middle of the turn's bar.
          var mx = x(a.mean + 0.5), md = x(a.median + 0.5);
          g += '<line class="mean-line" x1="' + mx + '" x2="' + mx + '" y1="' + top + '" y2="' + y(0) + '"><title>mean ' + fixed(a.mean, 2) + "</title></line>" +
            '<line class="median" x1="' + md + '" x2="' + md + '" y1="' + top + '" y2="' + y(0) + '"><title>median ' + fixed(a.median, 1) + "</title></line>";
        }
        h += '<figure style="--seat:' + c + '"><figcaption>' + esc(a.rank + ". " + a.name) + " <small>" +
          (a.mean == null ? "never reached " + target : "mean " + fixed(a.mean, 2) + (a.sd == null ? "" : " ± " + fixed(a.sd, 2)) + ", median " + fixed(a.median, 1)) +
          (a.reached < a.games ? "; " + (a.games - a.reached) + " of " + a.games + " games did not reach it" : "") + "</small></figcaption>" +
          '<svg viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="Histogram of turns to ' + esc(target) + ' for ' + esc(a.name) + '">' + g + "</svg></figure>";
      });
      document.getElementById("bench-hists").innerHTML = h;
    })();
  })();

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
    var W = 900, left = labelRoom(agents), right = 120, rowH = 34, top = 14, H = top + agents.length * rowH + 36;
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
    // The top leaves room for the count written above the tallest bar.
    var W = 900, H = 360, left = 60, right = 20, top = 36, bottom = 64;
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

  // Every game: a page of the list at a time, so that a league of 100,000 games opens at once;
  // the filter picks the matching rows from the compact list and draws only the first page.
  (function () {
    var PAGE = 100;
    var table = document.getElementById("games");
    var input = document.getElementById("game-filter");
    var p = Arena.params();
    var shown = [], page = 0;
    function seatList(g) {
      return g.seats.map(function (n, i) {
        var out = g.forfeits.indexOf(n) >= 0;
        return "<span class=\"seat\"><span class=\"swatch\" style=\"background:" + Arena.seatColour(i) + "\"></span>" +
          i + ": " + esc(n) + (out ? " <em>(forfeited)</em>" : "") + "</span>";
      }).join(" ");
    }
    var scored = games.scored;
    function faultsCell(g) {
      return g.faults.length ? g.faults.map(function (x) { return esc(x.agent + ": " + x.kind.replace(/_/g, " ")); }).join("<br>") : "—";
    }
    function links(g) {
      return "<td class=\"text\">" + (g.data ? replayLink(g.id, Arena.game(g.game || s.game).link) : "<span class=\"error\">" + esc(g.error || "no data") + "</span>") +
        "</td><td class=\"text\"><a href=\"" + esc(g.record) + "\">" + esc(g.record.split("/").pop()) + "</a></td></tr>";
    }
    // A solo game: reached the target in `turns`, or not.
    function soloResult(g) {
      if (g.result === "win") return "<strong>" + g.turns + "</strong>";
      return "not reached (" + (g.result === "draw_round_cap" ? "round cap" : g.forfeits.length ? "forfeited" : esc(Arena.result(g.result))) + ")";
    }
    var head = solo
      ? "<thead><tr><th scope=\"col\">Game</th><th scope=\"col\">Agent</th><th scope=\"col\">Turns to " + esc(target) + "</th><th scope=\"col\">Score</th><th scope=\"col\">Faults</th><th scope=\"col\">Turns</th><th scope=\"col\">Record</th></tr></thead><tbody>"
      : "<thead><tr><th scope=\"col\">Game</th><th scope=\"col\">Seats</th><th scope=\"col\">Winner</th><th scope=\"col\">Result</th><th scope=\"col\">Rounds</th>" +
        (scored ? "<th scope=\"col\">Scores</th>" : "") + "<th scope=\"col\">Faults</th><th scope=\"col\">Replay</th><th scope=\"col\">Record</th></tr></thead><tbody>";
    function row(g) {
      if (solo) {
        return "<tr data-game=\"" + g.id + "\"><td>" + g.id + "</td><td class=\"text\">" + esc(g.seats[0]) + "</td><td>" + soloResult(g) +
          "</td><td>" + (g.scores ? Number(g.scores[0]).toLocaleString("en-US") : "—") + "</td><td class=\"text\">" + faultsCell(g) + "</td>" + links(g);
      }
      return "<tr data-game=\"" + g.id + "\"><td>" + g.id + "</td><td class=\"text\">" + seatList(g) + "</td><td class=\"text\">" +
        (g.winner ? "<strong>" + esc(g.winner) + "</strong>" : "—") + "</td><td class=\"text\">" + esc(Arena.result(g.result)) +
        "</td><td>" + g.rounds + "</td>" +
        (scored ? "<td class=\"text\">" + (g.scores || []).map(function (x) { return Number(x).toLocaleString("en-US"); }).join(" / ") + "</td>" : "") +
        "<td class=\"text\">" + faultsCell(g) + "</td>" + links(g);
    }
    function drawPage() {
      var pages = Math.max(1, Math.ceil(shown.length / PAGE));
      page = Math.max(0, Math.min(page, pages - 1));
      var h = head;
      for (var k = page * PAGE; k < Math.min(shown.length, (page + 1) * PAGE); k++) h += row(games.get(shown[k]));
      table.innerHTML = h + "</tbody>";
      document.getElementById("game-count").textContent = shown.length + " of " + games.length + " games" +
        (pages > 1 ? " (" + (page * PAGE + 1) + "–" + Math.min(shown.length, (page + 1) * PAGE) + " shown)" : "");
      document.getElementById("game-page").textContent = "page " + (page + 1) + " of " + pages;
      document.getElementById("game-prev").disabled = page === 0;
      document.getElementById("game-next").disabled = page >= pages - 1;
      Array.prototype.forEach.call(document.querySelectorAll(".pager"), function (el) { el.hidden = pages < 2; });
    }
    function filter(text) {
      shown = games.withAgent(text);
      page = 0;
      drawPage();
    }
    input.addEventListener("input", function () { filter(input.value); });
    document.getElementById("game-prev").addEventListener("click", function () { page--; drawPage(); });
    document.getElementById("game-next").addEventListener("click", function () { page++; drawPage(); });
    // index.html?agent=NAME&page=N opens the list filtered and at that page.
    input.value = p.agent || "";
    shown = games.withAgent(input.value);
    page = (parseInt(p.page, 10) || 1) - 1;
    drawPage();
  })();
})();
