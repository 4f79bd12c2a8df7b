// The report's list of games, as data.js holds it: compact rows that refer to a table of words
// (the format is described in report/rows.rs). A league of 100,000 games is 100,000 rows, so rows
// are decoded only when a page of the list is drawn, and filtering works on word numbers.
"use strict";

Arena.gameRows = function (list) {
  var words = (list && list.words) || [], rows = (list && list.rows) || [];
  function pad6(n) { return ("000000" + n).slice(-6); }
  function word(i) { return words[i]; }

  function get(i) {
    var r = rows[i], seats = r[2].map(word);
    var id = r[0];
    return {
      id: id,
      game: r[1] < 0 ? null : words[r[1]],
      seats: seats,
      winner: r[3] < 0 ? null : seats[r[3]],
      result: words[r[4]],
      rounds: r[5],
      turns: r[6],
      scores: r[7] === 0 ? null : r[7],
      forfeits: r[8].map(function (s) { return seats[s]; }),
      faults: faults(i),
      record: typeof r[10] === "string" ? r[10] : "../records/game-" + pad6(id) + ".jsonl" + (r[10] === 1 ? ".gz" : ""),
      error: r[11] === 0 ? null : r[11],
      // Whether the replay packs hold the game (its record could be read).
      data: r[1] >= 0
    };
  }

  function faults(i) {
    var r = rows[i];
    return r[9].map(function (f) { return { agent: words[r[2][f[0]]], seat: f[0], kind: words[f[1]] }; });
  }

  // Rows are in the order of the game ids.
  function byId(id) {
    var lo = 0, hi = rows.length - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1, at = rows[mid][0];
      if (at === id) return get(mid);
      if (at < id) lo = mid + 1; else hi = mid - 1;
    }
    return null;
  }

  function matching(pred) {
    var out = [];
    for (var i = 0; i < rows.length; i++) if (pred(i)) out.push(i);
    return out;
  }

  // The rows of the games in which an agent whose name contains `text` (any case) plays; every
  // row for an empty text.
  function withAgent(text) {
    var f = String(text || "").trim().toLowerCase();
    if (!f) return matching(function () { return true; });
    var hit = words.map(function (w) { return String(w).toLowerCase().indexOf(f) >= 0; });
    return matching(function (i) {
      var seats = rows[i][2];
      for (var k = 0; k < seats.length; k++) if (hit[seats[k]]) return true;
      return false;
    });
  }

  return {
    length: rows.length,
    get: get,
    byId: byId,
    faults: faults,
    matching: matching,
    withAgent: withAgent,
    ids: function (list) { return list.map(function (i) { return rows[i][0]; }); },
    scored: rows.some(function (r) { return r[7] !== 0; })
  };
};
