// Keeps the leaderboard (#leaderboard), the latest games (#recent) and an agent's page (its
// standing, #standing, and its games, #games) up to date from the server's event stream
// (GET /api/events). Text from contestants is written with textContent.
"use strict";

(function () {
  var table = document.getElementById("leaderboard");
  var standing = document.getElementById("standing");
  if ((!table && !standing) || !window.EventSource) return;
  var turns = table && table.getAttribute("data-measure") === "turns";

  function num(x, digits) {
    return x === null || x === undefined || !isFinite(x) ? "–" : x.toFixed(digits);
  }

  function cell(row, text) {
    var td = document.createElement("td");
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  // An agent's page: its line of the leaderboard, by contestant; another version reloads it.
  function renderStanding(board) {
    var id = standing.getAttribute("data-contestant");
    var version = standing.getAttribute("data-version");
    for (var i = 0; i < board.agents.length; i++) {
      var a = board.agents[i];
      if (String(a.contestant) !== id) continue;
      if (String(a.version) !== version) { location.reload(); return; }
      var fields = {
        rank: String(a.rank),
        of: String(board.agents.length),
        games: String(a.games),
        wins: String(a.wins),
        rating: num(a.rating, 1) + " ± " + num(a.interval, 1)
      };
      Object.keys(fields).forEach(function (f) {
        var el = standing.querySelector('[data-field="' + f + '"]');
        if (el) el.textContent = fields[f];
      });
      return;
    }
  }

  function render(board) {
    if (standing) renderStanding(board);
    if (!table) return;
    var body = document.createElement("tbody");
    board.agents.forEach(function (a) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-contestant", String(a.contestant));
      cell(tr, String(a.rank));
      var link = document.createElement("a");
      link.href = "/agents/" + encodeURIComponent(a.contestant);
      link.textContent = a.name;
      cell(tr, "").appendChild(link);
      cell(tr, "v" + a.version);
      cell(tr, String(a.games));
      cell(tr, String(a.wins));
      cell(tr, num(a.rating, turns ? 1 : 0) + " ± " + num(a.interval, turns ? 1 : 0));
      cell(tr, String(a.faults));
      body.appendChild(tr);
    });
    table.replaceChild(body, table.tBodies[0]);
    var empty = document.getElementById("empty");
    if (empty) empty.hidden = board.agents.length > 0;
    table.setAttribute("data-games", String(board.games));
  }

  function addGame(g) {
    var list = document.getElementById("recent");
    if (!list) {
      // An agent's page lists the games of its playing version only.
      list = document.getElementById("games");
      var label = list && list.getAttribute("data-label");
      if (!label || g.seats.indexOf(label) < 0) return;
    }
    var li = document.createElement("li");
    var link = document.createElement("a");
    link.href = "/replays/game.html?game=" + encodeURIComponent(g.id);
    link.textContent = "Game " + g.id;
    li.appendChild(link);
    // Names in <bdi>, as the server writes them: a right-to-left name cannot reorder the rest.
    var name = function (n) {
      var b = document.createElement("bdi");
      b.textContent = n;
      return b;
    };
    li.appendChild(document.createTextNode(": "));
    g.seats.forEach(function (s, i) {
      if (i) li.appendChild(document.createTextNode(" vs "));
      li.appendChild(name(s));
    });
    if (g.winner === null || g.winner === undefined) {
      li.appendChild(document.createTextNode(" — no winner"));
    } else {
      li.appendChild(document.createTextNode(" — won by "));
      li.appendChild(name(g.winner));
    }
    list.insertBefore(li, list.firstChild);
    // As many as the server lists: 20 latest games, 50 on an agent's page.
    var most = list.id === "games" ? 50 : 20;
    while (list.children.length > most) list.removeChild(list.lastChild);
  }

  var events = new EventSource("/api/events");
  events.addEventListener("leaderboard", function (e) { render(JSON.parse(e.data)); });
  events.addEventListener("game", function (e) { addGame(JSON.parse(e.data)); });
  // Submissions closed or the final ended: the page's text changes, so it is drawn again.
  events.addEventListener("status", function () { location.reload(); });
})();
