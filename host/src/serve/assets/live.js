// Keeps the leaderboard (#leaderboard) and the latest games (#recent) up to date from the
// server's event stream (GET /api/events). Text from contestants is written with textContent.
"use strict";

(function () {
  var table = document.getElementById("leaderboard");
  if (!table || !window.EventSource) return;
  var turns = table.getAttribute("data-measure") === "turns";

  function num(x, digits) {
    return x === null || x === undefined || !isFinite(x) ? "–" : x.toFixed(digits);
  }

  function cell(row, text) {
    var td = document.createElement("td");
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function render(board) {
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
    if (!list) return;
    var li = document.createElement("li");
    var link = document.createElement("a");
    link.href = "/replays/game.html?game=" + encodeURIComponent(g.id);
    link.textContent = "Game " + g.id;
    li.appendChild(link);
    li.appendChild(document.createTextNode(": " + g.seats.join(" vs ") + " — " +
      (g.winner === null || g.winner === undefined ? "no winner" : "won by " + g.winner)));
    list.insertBefore(li, list.firstChild);
    while (list.children.length > 20) list.removeChild(list.lastChild);
  }

  var events = new EventSource("/api/events");
  events.addEventListener("leaderboard", function (e) { render(JSON.parse(e.data)); });
  events.addEventListener("game", function (e) { addGame(JSON.parse(e.data)); });
  // Submissions closed or the final ended: the page's text changes, so it is drawn again.
  events.addEventListener("status", function () { location.reload(); });
})();
