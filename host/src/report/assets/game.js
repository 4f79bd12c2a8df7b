// game.html?game=N: opens game N in its game's viewer (games.js says which), whatever the game.
// A file of its own, not inline: `arena serve` allows only its own script files
// (Content-Security-Policy `script-src 'self'`).
"use strict";
(function () {
  var id = parseInt(Arena.params().game, 10);
  function fail(msg) {
    document.getElementById("loading").hidden = true;
    var e = document.getElementById("load-error");
    e.hidden = false;
    e.textContent = msg;
  }
  if (!(id >= 0)) {
    fail("No game given: open a game from the list of games (game.html?game=N).");
    return;
  }
  Arena.loadGame(id, function (G) {
    var page = Arena.viewerPage(G.game);
    if (page) location.replace(page + location.search);
    else fail("No viewer shows games of " + G.game + ".");
  }, fail);
})();
