// The Farkle viewer's own part (the chrome, report/viewer/viewer.js, loads the game; ?turn=N
// scrolls to turn N): the game as a score chart and a table of every turn: the rolls, what was
// drafted, and how the turn ended. It has no frames, so the page has no replay controls.
"use strict";

(function () {
  var esc = Arena.esc;
  var $ = function (x) { return document.getElementById(x); };
  var LAYOUT = '<p id="facts" class="summary"></p>' +
    '<section id="progress-section"><h2>Score by round</h2>' +
    '<p class="hint">Banked score after each of the player\'s turns; the dashed line is the target. A flat step is a turn that banked nothing (a farkle, a rejected draft or a fault).</p>' +
    '<figure id="progress" class="chart"></figure></section>' +
    '<section id="turns-section"><h2>Turns</h2>' +
    '<p class="hint">Every roll of every turn. Drafted dice are dark; <span class="die-key kept">5</span> drafted, <span class="die-key">3</span> left. After each draft the player either rolled the dice left (all six again after hot dice) or banked.</p>' +
    '<p class="filters"><span class="filter"><label><input type="checkbox" id="only-lost"> Only turns that banked nothing</label></span>' +
    '<span id="seat-filter" class="filter"></span><span id="turn-count" class="muted"></span></p>' +
    '<div class="scroll"><table id="turns" class="numbers farkle-turns"></table></div></section>';

  var REJECTS = {
    empty_draft: "empty draft (nothing drafted)",
    index_out_of_range: "a die index past the end of the roll",
    repeated_index: "the same die drafted twice",
    non_scoring: "a drafted die scores nothing",
    unknown_action: "unknown action (neither roll nor bank)"
  };

  function start(G, view) {
    var names = G.players, n = names.length, solo = n === 1, p = view.params;
    var target = G.target || 10000;
    var turns = G.turns || [];
    var name = view.name, who = view.who;
    view.root.innerHTML = LAYOUT;
    function num(x) { return Number(x || 0).toLocaleString("en-US"); }

    if (solo) $("title").innerHTML += " <span class=\"vs\">alone</span>";

    // Outcome.
    var o = G.outcome || {}, banner = $("banner");
    banner.hidden = false;
    if (solo) {
      var reached = o.result === "win";
      banner.className = "banner " + (reached ? "won" : "drawn");
      banner.textContent = reached
        ? "★ Reached " + num(target) + " in " + turns.length + " turns"
        : "✗ Did not reach " + num(target) + (o.round_cap ? " within the cap of " + G.round_cap + " turns" : " (the player forfeited)") +
          " — " + num((G.scores || [0])[0]) + " points";
    } else {
      banner.className = "banner " + (o.result === "win" ? "won" : "drawn");
      banner.textContent = o.result === "win"
        ? "★ " + name(o.seat) + " wins" + (o.last_standing ? " as the last player left" : " with " + num((G.scores || [])[o.seat]) + " points") + " after " + (G.rounds || 0) + " rounds"
        : o.result === "draw" ? "= Draw " + (o.round_cap ? "after " + G.rounds + " rounds (round cap)" : "(shared highest score, or every player forfeited)")
        : "Game unfinished";
    }
    if (G.tally_matches_final === false) {
      banner.innerHTML += '<div class="warn">⚠ The banked points in this record do not add up to the scores it states: check it with <code>arena verify</code>.</div>';
    }

    // Facts per seat: banked, farkles, rejected, faults, points lost.
    var facts = names.map(function () { return { turns: 0, banked: 0, farkle: 0, rejected: 0, fault: 0, lost: 0, rolls: 0, hot: 0 }; });
    turns.forEach(function (t) {
      var f = facts[t.seat];
      if (!f) return;
      f.turns++;
      f.rolls += (t.rolls || []).length;
      f.hot += (t.rolls || []).filter(isHot).length;
      if (t.end === "banked") f.banked++;
      else {
        f[t.end === "farkle" ? "farkle" : t.end === "rejected" ? "rejected" : "fault"]++;
        f.lost += atRisk(t);
      }
    });
    $("facts").innerHTML = facts.map(function (f, seat) {
      var count = Arena.count;
      return (solo ? "" : who(seat) + ": ") + count(f.turns, "turn") + ": " + f.banked + " banked, " + count(f.farkle, "farkle") +
        (f.rejected ? ", <strong>" + count(f.rejected, "rejected draft") + "</strong>" : "") +
        (f.fault ? ", <strong>" + count(f.fault, "fault") + "</strong>" : "") +
        "; " + num(f.lost) + (f.lost === 1 ? " point" : " points") + " lost at risk; " + count(f.rolls, "roll") + ", " + f.hot + " hot dice; seed " + esc(G.seed) + ".";
    }).join("<br>");

    drawProgress(G, names, target);

    // Seat filter for races.
    if (!solo) {
      $("seat-filter").innerHTML = '<label for="seat">Player:</label> <select id="seat"><option value="">every player</option>' +
        names.map(function (nm, i) { return '<option value="' + i + '">' + esc(nm) + "</option>"; }).join("") + "</select>";
    }
    var onlyLost = $("only-lost"), seatSel = $("seat");
    function draw() {
      var lostOnly = onlyLost.checked, seat = seatSel && seatSel.value !== "" ? parseInt(seatSel.value, 10) : null, shown = 0;
      var h = "<thead><tr><th scope=\"col\">Turn</th><th scope=\"col\">Round</th>" + (solo ? "" : "<th scope=\"col\">Player</th>") +
        "<th scope=\"col\">Rolls and drafts</th><th scope=\"col\">Turn ended</th><th scope=\"col\">Banked</th><th scope=\"col\">Score</th>" +
        (solo ? "" : "<th scope=\"col\">All scores</th>") + "</tr></thead><tbody>";
      var startLogs = (G.start && G.start.logs) || [], startFaults = (G.start && G.start.faults) || [];
      if (startFaults.length || startLogs.length) {
        h += "<tr><td>0</td><td>—</td>" + (solo ? "" : "<td></td>") + "<td class=\"text\" colspan=\"" + (solo ? 4 : 5) + "\">Loading: " +
          (startFaults.length ? startFaults.map(function (f) { return who(f.seat) + " fault " + esc(Arena.fault(f.fault.kind)) + " <code>" + esc(f.fault.detail) + "</code>"; }).join("; ") : "all loaded") +
          logHtml(startLogs) + "</td></tr>";
      }
      turns.forEach(function (t) {
        if (lostOnly && t.end === "banked") return;
        if (seat != null && t.seat !== seat) return;
        shown++;
        h += "<tr id=\"turn-" + t.turn + "\" class=\"end-" + esc(t.end) + "\"><td><a href=\"#turn-" + t.turn + "\">" + t.turn + "</a></td><td>" + t.round + "</td>" +
          (solo ? "" : "<td class=\"text\">" + who(t.seat) + "</td>") +
          "<td class=\"text\"><ol class=\"rolls\">" + (t.rolls || []).map(function (r, i) { return rollHtml(t, r, i); }).join("") + "</ol>" + logHtml(t.logs) + "</td>" +
          "<td class=\"text\">" + endHtml(t) + "</td><td>" + (t.banked ? "+" + num(t.banked) : "0") + "</td><td><strong>" + num(t.score) + "</strong></td>" +
          (solo ? "" : "<td class=\"text\">" + (t.scores || []).map(function (x, i) { return esc(name(i)) + " " + num(x); }).join(", ") + "</td>") + "</tr>";
      });
      $("turns").innerHTML = h + "</tbody>";
      $("turn-count").textContent = " " + shown + " of " + turns.length + " turns";
    }
    onlyLost.addEventListener("change", draw);
    if (seatSel) seatSel.addEventListener("change", draw);
    draw();
    var want = parseInt(p.turn, 10);
    if (want >= 1 && $("turn-" + want)) $("turn-" + want).scrollIntoView();
    else if (location.hash && document.querySelector(location.hash)) document.querySelector(location.hash).scrollIntoView();
  }

  function isHot(r) { return r.draft && r.points != null && r.action === 0 && r.draft.length === r.dice.length; }

  // Points drafted in the turn before it ended without banking: what the ending cost.
  function atRisk(t) {
    return (t.rolls || []).reduce(function (sum, r) { return sum + (r.points || 0); }, 0);
  }

  function dieHtml(face, kept, bad) {
    return '<span class="die-key' + (kept ? " kept" : "") + (bad ? " bad" : "") + '">' + esc(face) + "</span>";
  }

  function rollHtml(t, r, i) {
    var drafted = {}, bad = r.draft && r.points == null;
    (r.draft || []).forEach(function (d) { drafted[d] = true; });
    var dice = (r.dice || []).map(function (f, k) { return dieHtml(f, drafted[k], bad && drafted[k]); }).join("");
    var what;
    if (r.draft && r.points != null) {
      what = "<strong>+" + r.points + "</strong> " + (r.action === 1 ? "→ bank" : isHot(r) ? "→ <strong>hot dice</strong>, roll six" : "→ roll " + (r.dice.length - r.draft.length));
    } else if (r.draft) {
      what = "drafted [" + r.draft.join(", ") + "]" + (r.action !== 0 && r.action !== 1 ? ", action " + esc(r.action) : "") + " → <strong>rejected</strong>";
    } else if (t.end === "farkle") {
      what = "<strong>farkle</strong>";
    } else {
      what = "<strong>no answer</strong>";
    }
    return '<li><span class="roll-no">' + (i + 1) + ".</span> " + dice + " " + what + "</li>";
  }

  function endHtml(t) {
    var lost = atRisk(t);
    switch (t.end) {
      case "banked": return "banked";
      case "farkle": return "<strong>farkle</strong>" + (lost ? " (lost " + lost + ")" : "");
      case "rejected": return "<strong>rejected</strong>: " + esc(REJECTS[t.reason] || t.reason) + (lost ? " (lost " + lost + ")" : "");
      case "fault":
        return "<strong>fault</strong>: " + esc(Arena.fault(t.fault && t.fault.kind)) + (t.fault && t.fault.detail ? " <code>" + esc(t.fault.detail) + "</code>" : "") +
          (t.forfeit ? " — <strong>forfeit</strong>" : "");
      default: return esc(t.end);
    }
  }

  function logHtml(logs) {
    if (!logs || !logs.length) return "";
    return logs.map(function (l) {
      return '<details class="log"><summary>debug log</summary><pre>' + esc(l.text) + "</pre></details>";
    }).join("");
  }

  function niceStep(raw) {
    var q = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
    var m = raw / q;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * q;
  }

  function drawProgress(G, names, target) {
    var turns = G.turns || [];
    if (!turns.length) { $("progress").textContent = "No turns."; return; }
    var rounds = Math.max(1, turns[turns.length - 1].round);
    var top = Math.max(target, Math.max.apply(null, turns.map(function (t) { return t.score || 0; })));
    var ystep = niceStep(top / 6), ymax = Math.ceil(top / ystep) * ystep;
    // Room at the right for the longest name (labels are 18 px, about 11 px a character).
    var longest = Math.max.apply(null, names.map(function (nm) { return String(nm).length; }));
    var right = Math.min(360, Math.max(150, 24 + 11 * longest));
    var xstep = Math.max(1, niceStep(rounds / 12)), W = 900, H = 350, left = 70, tp = 14, bottom = 56;
    function x(r) { return left + r / rounds * (W - left - right); }
    function y(v) { return tp + (1 - v / ymax) * (H - tp - bottom); }
    var g = "";
    for (var v = 0; v <= ymax; v += ystep) {
      g += '<line class="grid" x1="' + left + '" x2="' + (W - right) + '" y1="' + y(v) + '" y2="' + y(v) + '"/>' +
        '<text class="tick" x="' + (left - 8) + '" y="' + (y(v) + 5) + '" text-anchor="end">' + v.toLocaleString("en-US") + "</text>";
    }
    for (var r = 0; r <= rounds; r += xstep) {
      g += '<text class="tick" x="' + x(r) + '" y="' + (H - bottom + 22) + '" text-anchor="middle">' + r + "</text>";
    }
    g += '<line class="zero" x1="' + left + '" x2="' + (W - right) + '" y1="' + y(target) + '" y2="' + y(target) + '"/>' +
      // Above the dashed line, or below it when the line is the top of the chart.
      '<text class="value target" x="' + (left + 8) + '" y="' + (y(target) - 8 < tp + 16 ? y(target) + 20 : y(target) - 8) + '">target ' +
      target.toLocaleString("en-US") + "</text>" +
      '<line class="axis" x1="' + left + '" x2="' + (W - right) + '" y1="' + y(0) + '" y2="' + y(0) + '"/>' +
      '<text class="axis-label" x="' + ((left + W - right) / 2) + '" y="' + (H - 6) + '" text-anchor="middle">round</text>';
    // Each player's name at the right, at the height of its last score, moved apart so that no
    // two names overlap.
    var ends = names.map(function (nm, seat) {
      var last = 0;
      turns.forEach(function (t) { if (t.seat === seat) last = t.score || 0; });
      return { seat: seat, y: y(last) + 6 };
    }).sort(function (a, b) { return a.y - b.y; });
    var labelY = [];
    ends.forEach(function (e, i) {
      var at = i ? Math.max(e.y, ends[i - 1].y + 22) : e.y;
      e.y = at;
      labelY[e.seat] = at;
    });
    var over = ends.length ? ends[ends.length - 1].y - (H - bottom + 6) : 0;
    if (over > 0) labelY = labelY.map(function (v) { return v - over; });
    names.forEach(function (nm, seat) {
      var pts = [[0, 0]];
      turns.forEach(function (t) { if (t.seat === seat) pts.push([t.round, t.score || 0]); });
      var c = Arena.seatColour(seat), d = pts.map(function (q, i) { return (i ? "L" : "M") + x(q[0]).toFixed(1) + " " + y(q[1]).toFixed(1); }).join(" ");
      var lastPt = pts[pts.length - 1];
      g += "<g><title>" + Arena.esc(nm) + ": " + lastPt[1] + " points after round " + lastPt[0] + "</title>" +
        '<path d="' + d + '" fill="none" stroke="' + c + '" stroke-width="3" stroke-linejoin="round"/>' +
        '<text class="label" x="' + (W - right + 8) + '" y="' + labelY[seat] + '" fill="' + c + '">' + Arena.esc(nm) + "</text></g>";
    });
    $("progress").innerHTML = '<svg viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="Score by round">' + g + "</svg>";
  }

  Arena.viewer({ title: "Farkle", start: start });
})();
