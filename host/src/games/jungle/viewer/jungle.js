// The Jungle viewer's own part (the chrome, report/viewer/viewer.js, loads the game and runs the
// controls): the game ply by ply, the board (each position from its notation in the record), the
// last move, captures, and both fuel clocks. Frame 0 is the start position; frame k the position
// after ply k.
"use strict";

(function () {
  var esc = Arena.esc;
  var KINDS = { r: "rat", c: "cat", d: "dog", w: "wolf", p: "leopard", t: "tiger", l: "lion", e: "elephant" };
  var ORDER = "rcdwptle";
  var REASONS = {
    den: "entering the den", all_captured: "capturing every enemy piece", no_moves: "leaving the opponent no legal move",
    time: "time (the opponent's clock ran out)", forfeit: "forfeit", no_capture: "100 plies without a capture", ply_cap: "the ply cap"
  };
  var ILLEGAL = {
    empty: "there is no piece on that square", not_yours: "that piece is not theirs",
    not_a_step: "not one square up, down, left or right (nor a lion's or tiger's jump)",
    jump_blocked: "a rat in the water blocks the jump", own_piece: "one of their own pieces stands there",
    own_den: "a piece may not enter its own den", water: "only the rat may enter the water",
    elephant_takes_rat: "the elephant may not capture the rat", rat_from_water: "a rat may not capture the elephant from the water",
    outranked: "the piece there outranks it"
  };
  // A position in the notation: {board: 63 letters or "" (a1 first), side: "w" | "b"}; null
  // when it cannot be read.
  function parse(text) {
    if (typeof text !== "string") return null;
    var fields = text.trim().split(/\s+/), ranks = fields[0].split("/");
    if (ranks.length !== 9) return null;
    var board = [];
    for (var i = 0; i < 63; i++) board.push("");
    for (var row = 0; row < 9; row++) {
      var rank = 8 - row, file = 0;
      for (var k = 0; k < ranks[row].length; k++) {
        var ch = ranks[row][k];
        if (/[1-7]/.test(ch)) file += parseInt(ch, 10);
        else if (KINDS[ch.toLowerCase()] && file < 7) { board[rank * 7 + file] = ch; file++; }
        else return null;
      }
      if (file !== 7) return null;
    }
    return { board: board, side: fields[1] === "b" ? "b" : "w" };
  }
  function square(name) {
    if (typeof name !== "string" || !/^[a-g][1-9]$/.test(name)) return -1;
    return (name.charCodeAt(1) - 49) * 7 + (name.charCodeAt(0) - 97);
  }
  function isWater(i) { var f = i % 7, r = Math.floor(i / 7); return r >= 3 && r <= 5 && (f === 1 || f === 2 || f === 4 || f === 5); }
  function isDen(i) { return i === 3 || i === 59; }
  function isTrap(i) { return i === 2 || i === 4 || i === 10 || i === 58 || i === 60 || i === 52; }
  function first(letter) { return letter === letter.toUpperCase(); }
  function num(x) { return Number(x || 0).toLocaleString("en-US"); }

  function start(G, view) {
    var turns = G.turns || [], $ = function (x) { return document.getElementById(x); };
    var frames = [parse(G.position)].concat(turns.map(function (t) { return parse(t.position); }));
    if (frames.some(function (f) { return !f; })) { view.fail("A position of this record cannot be read: check it with arena verify."); return null; }
    var last = frames.length - 1;
    var clock = G.clock || {}, startClock = clock.start || 0;
    var hasLogs = turns.some(function (t) { return t.logs && t.logs.length; }) || ((G.start && G.start.logs) || []).length > 0;
    var winner = G.outcome && G.outcome.result === "win" ? G.outcome.seat : null;
    // The largest clock of the game, for the bars.
    var top = Math.max.apply(null, [startClock + (clock.increment || 0), 1].concat(turns.map(function (t) { return t.clock || 0; })));
    var name = view.name;
    function sideOf(seat) { return seat === 0 ? "first player, upper case" : "second player, lower case"; }
    view.root.innerHTML = '<div class="board"><section class="jungle-board" aria-label="The board"><div id="board"></div>' +
      '<p id="notation" class="muted"></p></section>' +
      view.side('<section aria-label="The fuel clocks"><h2>Clocks (fuel)</h2><div id="clocks" class="clocks"></div></section>') + "</div>";

    var S = 64, LEFT = 34, TOP = 8;
    function xy(i) { return [LEFT + (i % 7) * S, TOP + (8 - Math.floor(i / 7)) * S]; }
    function drawBoard(k) {
      var f = frames[k], t = k > 0 ? turns[k - 1] : null, g = "";
      for (var i = 0; i < 63; i++) {
        var c = xy(i), cls = isWater(i) ? "water" : isDen(i) ? "den" : isTrap(i) ? "trap" : "land";
        g += '<rect class="sq ' + cls + '" x="' + c[0] + '" y="' + c[1] + '" width="' + S + '" height="' + S + '"/>';
        if (cls === "den" || cls === "trap") {
          g += '<text class="terrain" x="' + (c[0] + 4) + '" y="' + (c[1] + 14) + '">' + cls + "</text>";
        }
      }
      for (var r = 0; r < 9; r++) g += '<text class="coord" x="12" y="' + (TOP + (8 - r) * S + 38) + '">' + (r + 1) + "</text>";
      for (var fl = 0; fl < 7; fl++) g += '<text class="coord" x="' + (LEFT + fl * S + 27) + '" y="' + (TOP + 9 * S + 22) + '">' + "abcdefg"[fl] + "</text>";
      var from = -1, to = -1;
      if (t && t.move && !t.fault) { from = square(t.move.slice(0, 2)); to = square(t.move.slice(2)); }
      if (from >= 0) {
        var a = xy(from), b = xy(to);
        g += '<rect class="from" x="' + (a[0] + 3) + '" y="' + (a[1] + 3) + '" width="' + (S - 6) + '" height="' + (S - 6) + '"/>' +
          '<line class="arrow" x1="' + (a[0] + S / 2) + '" y1="' + (a[1] + S / 2) + '" x2="' + (b[0] + S / 2) + '" y2="' + (b[1] + S / 2) + '"/>';
      }
      for (var j = 0; j < 63; j++) {
        var letter = f.board[j];
        if (!letter) continue;
        var q = xy(j), up = first(letter), seat = up ? 0 : 1;
        g += '<g class="piece ' + (up ? "first" : "second") + (j === to ? " moved" : "") + '"><title>' + (up ? "first" : "second") + " player's " + KINDS[letter.toLowerCase()] + " on " + "abcdefg"[j % 7] + (Math.floor(j / 7) + 1) + "</title>" +
          '<circle cx="' + (q[0] + S / 2) + '" cy="' + (q[1] + S / 2) + '" r="26" fill="' + Arena.seatColour(seat) + '"/>' +
          '<text class="letter" x="' + (q[0] + S / 2) + '" y="' + (q[1] + S / 2 + 6) + '" text-anchor="middle">' + letter + "</text>" +
          '<text class="kind" x="' + (q[0] + S / 2) + '" y="' + (q[1] + S / 2 + 19) + '" text-anchor="middle">' + KINDS[letter.toLowerCase()] + "</text></g>";
      }
      if (to >= 0) {
        var z = xy(to);
        g += '<rect class="' + (t.captured ? "taken" : "to") + '" x="' + (z[0] + 2) + '" y="' + (z[1] + 2) + '" width="' + (S - 4) + '" height="' + (S - 4) + '"/>';
      }
      $("board").innerHTML = '<svg viewBox="0 0 ' + (LEFT + 7 * S + 8) + " " + (TOP + 9 * S + 32) + '" role="img" aria-label="The board after ' +
        (k === 0 ? "the start" : "ply " + k) + '">' + g + "</svg>";
      $("notation").textContent = k === 0 ? G.position : t.position;
    }

    // The pieces each side has lost so far: the kinds of the start position missing now.
    function lost(k, upper) {
      var had = frames[0].board, now = frames[k].board, out = [];
      ORDER.split("").forEach(function (l) {
        var letter = upper ? l.toUpperCase() : l;
        if (had.indexOf(letter) >= 0 && now.indexOf(letter) < 0) out.push(KINDS[l]);
      });
      return out;
    }

    function clockOf(seat, k) {
      for (var i = k - 1; i >= 0; i--) if (turns[i].seat === seat) return turns[i].clock;
      return startClock;
    }

    function drawClocks(k) {
      var t = k > 0 ? turns[k - 1] : null, toMove = frames[k].side === "w" ? 0 : 1;
      $("clocks").innerHTML = [0, 1].map(function (seat) {
        var left = clockOf(seat, k), won = k === last && winner === seat;
        var acting = k < last && toMove === seat;
        var gone = lost(k, seat === 0);
        return '<div class="clock' + (acting ? " acting" : "") + (won ? " winner" : "") + '" style="--seat:' + Arena.seatColour(seat) + '">' +
          '<div class="who">' + esc(name(seat)) + ' <span class="muted">(' + sideOf(seat) + ")</span>" + (won ? " ★" : acting ? " ▶ to move" : "") + "</div>" +
          '<div class="fuel">' + num(left) + "</div>" +
          '<div class="bar"><span style="width:' + Math.min(100, 100 * left / top).toFixed(1) + '%"></span></div>' +
          '<div class="note">' + (t && t.seat === seat ? "this ply used " + num(t.fuel) + " fuel" : "&nbsp;") + "</div>" +
          '<p class="captured">Lost: ' + (gone.length ? esc(gone.join(", ")) : "nothing") + "</p></div>";
      }).join("") + '<p class="muted">Each clock starts at ' + num(startClock) + ", gets " + num(clock.increment) + " at each of its moves; a move may use at most " +
        num(clock.decision_cap) + ".</p>";
    }

    function narrate(k) {
      var items = [], title;
      if (k === 0) {
        title = "Before the first ply";
        items.push(["other", "•", name(frames[0].side === "w" ? 0 : 1) + " moves first."]);
        ((G.start && G.start.faults) || []).forEach(function (f) {
          items.push(["fault", "⚠", name(f.seat) + " failed to load: " + Arena.fault(f.fault.kind) + (f.fault.detail ? " — " + f.fault.detail : "")]);
        });
      } else {
        var t = turns[k - 1], mover = t.seat === 0 ? "first" : "second";
        title = "Ply " + t.turn + " · move " + t.round + " · " + name(t.seat);
        if (t.move && !t.fault) {
          var kind = KINDS[(t.piece || "").toLowerCase()] || "piece";
          items.push(["ok", "→", name(t.seat) + " moves the " + kind + " " + t.move.slice(0, 2) + " → " + t.move.slice(2)]);
          if (t.captured) items.push(["attack", "✕", "and takes the " + (mover === "first" ? "second" : "first") + " player's " + KINDS[t.captured.toLowerCase()]]);
        } else {
          if (t.move && t.illegal) items.push(["no", "✗", name(t.seat) + " answers " + t.move + ", which is illegal: " + (ILLEGAL[t.illegal] || t.illegal)]);
          if (t.fault) items.push(["fault", "⚠", "Fault: " + Arena.fault(t.fault.kind) + (t.fault.detail ? " — " + t.fault.detail : "")]);
          if (t.fault && t.forfeit) items.push(["fault", "✗", name(t.seat) + " forfeits"]);
          else if (t.fault && k < last) items.push(["other", "·", name(t.seat) + " loses the move"]);
        }
      }
      if (k === last && G.reason) {
        var o = G.outcome || {};
        items.push(o.result === "win" ? ["win", "★", name(o.seat) + " wins by " + (REASONS[G.reason] || G.reason)]
          : ["win", "=", "Draw by " + (REASONS[G.reason] || G.reason)]);
      }
      view.narrate(title, items);
    }

    function reason() { return REASONS[G.reason] || G.reason; }
    return {
      last: last,
      draw: function (k) {
        drawBoard(k);
        drawClocks(k);
        narrate(k);
        view.logs(!hasLogs ? null : k > 0 ? turns[k - 1].logs || [] : (G.start && G.start.logs) || []);
      },
      position: function (k) { return k === 0 ? "Start (ply 0 of " + last + ")" : "Ply " + k + " of " + last + " · move " + turns[k - 1].round; },
      banner: function () {
        var o = G.outcome || {};
        return {
          won: o.result === "win",
          text: o.result === "win" ? "★ " + name(o.seat) + " wins by " + reason() + " after " + last + " plies"
            : o.result === "draw" ? "= Draw by " + reason() + " after " + last + " plies" : "Game unfinished"
        };
      }
    };
  }

  Arena.viewer({ title: "Jungle", unit: ["ply", "plies"], speeds: [0.5, 1, 2, 4, 8, 16, 32], at: "turn", start: start });
})();
