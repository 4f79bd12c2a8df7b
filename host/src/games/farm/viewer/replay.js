// The replay viewer: replay.html?game=12[&turn=end|N][&speed=4][&play=1][&large=1]. Loads the
// game's data (Arena.loadGame: from the report's replay pack) and shows the game turn by
// turn. Frame 0 is the position before the first turn; frame k the position after turn k.
"use strict";

(function () {
  var esc = Arena.esc;
  // The animals, in the byte ABI's kind order, and their names in words.
  var ANIMALS = ["rabbit", "sheep", "pig", "cow", "horse", "small_dog", "big_dog"];
  var ANIMAL_WORDS = {
    rabbit: ["rabbit", "rabbits"], sheep: ["sheep", "sheep"], pig: ["pig", "pigs"],
    cow: ["cow", "cows"], horse: ["horse", "horses"], small_dog: ["small dog", "small dogs"],
    big_dog: ["big dog", "big dogs"], fox: ["fox", "foxes"], wolf: ["wolf", "wolves"]
  };
  var REASONS = {
    wrong_type: "the answer is not a trade (unknown kind code)",
    invalid_amount: "an amount is negative or larger than all animals of that kind",
    not_enough_animals: "the trader does not have what it offers",
    no_such_player: "the partner seat is not in this game",
    self_trade: "a player cannot trade with itself",
    partner_out: "the partner has forfeited the game",
    partner_not_enough_animals: "the partner does not have what was asked for",
    unequal_trade: "the two sides are not worth the same",
    many_to_many: "neither side is exactly one animal",
    declined: "the partner said no"
  };
  function animalWord(name, n) {
    var w = ANIMAL_WORDS[name] || [name, name];
    return n === 1 ? w[0] : w[1];
  }

  // A herd given either as the record's {"rabbit": 2} or as counts by kind index.
  function herdWords(herd) {
    var parts = [];
    ANIMALS.forEach(function (a, i) {
      var n = Array.isArray(herd) ? herd[i] : (herd || {})[a];
      if (n) parts.push(n + " " + animalWord(a, n));
    });
    return parts.length ? parts.join(", ") : "nothing";
  }

  function reason(r) { return REASONS[r] || String(r).replace(/_/g, " "); }
  var FARM = ["rabbit", "sheep", "pig", "cow", "horse"];
  var SPEEDS = [0.5, 1, 2, 4, 8, 16, 32];
  var p = Arena.params();
  var toggleLarge = Arena.setupLargeType();
  var id = parseInt(p.game, 10);
  var $ = function (x) { return document.getElementById(x); };

  function fail(msg) {
    var e = $("load-error");
    e.hidden = false;
    e.textContent = msg;
    $("controls").hidden = true;
  }

  if (!(id >= 0)) {
    fail("No game given: open a replay from the report's list of games (replay.html?game=N).");
    return;
  }
  Arena.loadGame(id, function (G) {
    // A game of another kind goes to its own viewer.
    if (Arena.inViewer(G, "replay.html")) start(G);
  }, fail);

  function pic(name, cls) {
    return '<svg class="' + (cls || "pic") + '" viewBox="0 0 64 64" aria-hidden="true"><use href="#pic-' + name + '"></use></svg>';
  }

  function start(G) {
    var names = G.players;
    var frames = [G.initial].concat(G.turns);
    var last = frames.length - 1;
    var frame = 0, shownOnce = false;
    var hasLogs = G.turns.some(function (t) { return t.logs && t.logs.length; });
    var winner = G.outcome && G.outcome.result === "win" ? G.outcome.seat : null;

    document.title = "Game " + G.id + ": " + names.join(" vs ") + " — replay";
    $("title").innerHTML = "Game " + G.id + ": " + names.map(function (n, i) {
      return '<span class="who"><span class="swatch" style="background:' + Arena.seatColour(i) + '"></span>' + esc(n) + "</span>";
    }).join(" <span class=\"vs\">vs</span> ");
    $("logs-box").hidden = !hasLogs;

    function name(seat) { return names[seat] != null ? names[seat] : "seat " + seat; }
    function party(x) { return x === "stock" ? "the stock" : name(x); }

    // Herd cards are built once and updated in place, so changed counts can be animated.
    (function build() {
      var h = "";
      function card(key, title, colour) {
        var c = '<article class="herd' + (key === "stock" ? " stock" : "") + '" id="herd-' + key + '" data-seat="' + key + '"' +
          (colour ? ' style="--seat:' + colour + '"' : "") + "><h3>" + title + '<span class="status" id="status-' + key + '"></span></h3>' +
          '<ul class="animals">';
        ANIMALS.forEach(function (a) {
          c += '<li class="animal" data-animal="' + a + '">' + pic(a) + '<span class="label">' + esc(animalWord(a, 1)) +
            '</span><span class="count" data-seat="' + key + '" data-animal="' + a + '" id="n-' + key + "-" + a + '">0</span>' +
            '<span class="delta" id="d-' + key + "-" + a + '"></span></li>';
        });
        c += "</ul>" + (key === "stock" ? "" : '<p class="kinds" id="kinds-' + key + '"></p>') + "</article>";
        return c;
      }
      names.forEach(function (n, seat) {
        h += card(seat, '<span class="seat-no">seat ' + seat + "</span> " + esc(n), Arena.seatColour(seat));
      });
      h += card("stock", "Stock", null);
      $("herds").innerHTML = h;
    })();

    var seek = $("seek");
    seek.max = String(last);

    // `flash`: only a single step forward animates, a jump would light up everything at once.
    function setCount(key, a, n, before, flash) {
      var el = $("n-" + key + "-" + a), d = $("d-" + key + "-" + a);
      var old = el.textContent;
      el.textContent = String(n);
      el.parentNode.classList.toggle("none", n === 0);
      var diff = before == null ? 0 : n - before;
      d.textContent = diff > 0 ? "+" + diff : diff < 0 ? "−" + (-diff) : "";
      d.className = "delta" + (diff > 0 ? " up" : diff < 0 ? " down" : "");
      el.parentNode.classList.remove("changed");
      if (flash && old !== String(n)) {
        void el.parentNode.offsetWidth; // restart the highlight animation
        el.parentNode.classList.add("changed");
      }
    }

    function face(die, f) {
      if (!f) return '<div class="die blank"><span class="die-name">' + die + ' die</span><span class="face-name">not rolled</span></div>';
      var danger = f === "fox" || f === "wolf";
      return '<div class="die' + (danger ? " danger" : "") + '"><span class="die-name">' + die + " die</span>" + pic(f, "pic big") +
        '<span class="face-name">' + (danger ? "⚠ " : "") + esc(animalWord(f, 1)) + "</span></div>";
    }

    function offerText(t) {
      var o = t.offer;
      if (o == null) return ["fault", "⚠", name(t.seat) + " gave no answer to the trade decision (see the fault below)"];
      if (o.kind === 0) return ["pass", "·", name(t.seat) + " does not trade"];
      var deal = herdWords(o.give) + " for " + herdWords(o.get);
      if (o.kind === 1) return ["offer", "⇄", name(t.seat) + " offers the stock " + deal];
      if (o.kind === 2) return ["offer", "⇄", name(t.seat) + " offers " + name(o.partner) + " " + deal];
      return ["offer", "⇄", name(t.seat) + " answers something that is not a trade (kind code " + o.kind + ")"];
    }

    function eventText(e, t) {
      switch (e.type) {
        case "answer":
          return e.accepted ? ["ok", "✓", name(e.seat) + " accepts " + name(e.trader) + "’s offer"]
            : ["no", "✗", name(e.seat) + " declines " + name(e.trader) + "’s offer"];
        case "trade_failed":
          return ["no", "✗", "Trade failed: " + reason(e.reason)];
        case "transfer":
          return ["move", "→", herdWords(e.animals) + ": " + party(e.from) + " → " + party(e.to)];
        case "rolled":
          return ["roll", "⚄", name(e.seat) + " rolls: fox die " + animalWord(e.roll.fox, 1) + ", wolf die " + animalWord(e.roll.wolf, 1)];
        case "wolf":
          if (e.lost.big_dog && Object.keys(e.lost).length === 1)
            return ["attack", "⚠", "The wolf! " + name(e.seat) + "’s big dog chases it off and is lost"];
          return ["attack", "⚠", "The wolf! " + name(e.seat) + " loses " + herdWords(e.lost)];
        case "fox":
          if (e.lost.small_dog && Object.keys(e.lost).length === 1)
            return ["attack", "⚠", "The fox! " + name(e.seat) + "’s small dog chases it off and is lost"];
          return ["attack", "⚠", "The fox! " + name(e.seat) + " loses " + herdWords(e.lost)];
        case "bred":
          return ["bred", "♥", "Breeding: " + name(e.seat) + " gets " + herdWords(e.gained)];
        case "fault":
          return ["fault", "⚠", "Fault in " + name(e.seat) + "’s " + Arena.decision(e.decision) + ": " + Arena.fault(e.kind) +
            (e.detail ? " — " + e.detail : "")];
        case "forfeit":
          return ["fault", "✗", name(e.seat) + " forfeits and is out of the game"];
        case "win":
          return ["win", "★", name(e.seat) + " wins" + (e.last_standing ? " as the last player left" : ": a rabbit, a sheep, a pig, a cow and a horse")];
        case "draw":
          return ["draw", "=", e.round_cap ? "Draw: no winner after " + (G.round_cap || "the capped number of") + " rounds" : "Draw: every player forfeited"];
      }
      return ["other", "•", JSON.stringify(e)];
    }

    function narrate(k) {
      var f = frames[k], items = [];
      if (k === 0) {
        $("turn-title").textContent = "Before the first turn";
        items.push(["other", "•", "Every herd is empty; the stock holds " + herdWords(f.stock) + "."]);
      } else {
        $("turn-title").textContent = "Turn " + f.turn + " · round " + f.round + " · " + name(f.seat);
        items.push(offerText(f));
      }
      var seen = {};
      (f.events || []).forEach(function (e) {
        // The partner's "no" was just narrated; "trade failed: declined" would say it twice.
        var repeat = e.type === "trade_failed" && e.reason === "declined" && seen.answer;
        seen[e.type] = true;
        if (!repeat) items.push(eventText(e, f));
      });
      if (f.roll && f.roll.wolf === "wolf" && !seen.wolf) items.push(["attack", "⚠", "The wolf finds nothing to take"]);
      if (f.roll && f.roll.fox === "fox" && !seen.fox) items.push(["attack", "⚠", "The fox finds nothing to take"]);
      if (f.roll && !seen.bred) items.push(["other", "·", "Nothing breeds"]);
      $("narration").innerHTML = items.map(function (it) {
        return '<li class="ev ' + it[0] + '"><span class="icon" aria-hidden="true">' + it[1] + "</span><span>" + esc(it[2]) + "</span></li>";
      }).join("");
    }

    function logs(k) {
      if (!hasLogs) return;
      var f = frames[k], list = (k > 0 && f.logs) || [];
      $("logs").innerHTML = list.length ? list.map(function (l) {
        return '<div class="log" style="--seat:' + Arena.seatColour(l.seat) + '"><div class="log-who">' + esc(name(l.seat)) +
          "</div><pre>" + esc(l.text) + "</pre></div>";
      }).join("") : '<p class="muted">Nothing logged this turn.</p>';
    }

    function show(k) {
      k = Math.max(0, Math.min(last, k));
      var prev = frame;
      frame = k;
      var f = frames[k], before = k > 0 ? frames[k - 1] : null, flash = shownOnce && prev === k - 1;
      shownOnce = true;
      var out = f.out || [];
      names.forEach(function (n, seat) {
        var herd = f.herds[seat] || [];
        ANIMALS.forEach(function (a, i) {
          setCount(seat, a, herd[i] || 0, before ? (before.herds[seat] || [])[i] || 0 : null, flash);
        });
        var missing = FARM.filter(function (a, i) { return !herd[i]; });
        $("kinds-" + seat).textContent = missing.length ? (5 - missing.length) + " of 5 kinds · missing " +
          missing.map(function (a) { return animalWord(a, 1); }).join(", ") : "all 5 kinds";
        var card = $("herd-" + seat), acting = k > 0 ? f.seat === seat : (G.initial.to_move || 0) === seat;
        var isOut = out.indexOf(seat) >= 0, won = k === last && winner === seat;
        card.classList.toggle("acting", acting && !won);
        card.classList.toggle("out", isOut);
        card.classList.toggle("winner", won);
        $("status-" + seat).textContent = won ? "★ winner" : isOut ? "✗ out (forfeited)" : acting ? (k > 0 ? "▶ this turn" : "▶ plays first") : "";
      });
      ANIMALS.forEach(function (a, i) {
        setCount("stock", a, f.stock[i] || 0, before ? before.stock[i] || 0 : null, flash);
      });
      $("dice").innerHTML = face("fox", f.roll && f.roll.fox) + face("wolf", f.roll && f.roll.wolf);
      narrate(k);
      logs(k);
      seek.value = String(k);
      $("position").textContent = k === 0 ? "Start (turn 0 of " + last + ")" :
        "Turn " + k + " of " + last + " · round " + f.round;
      var banner = $("banner");
      if (k === last) {
        var o = G.outcome || {};
        banner.hidden = false;
        banner.className = "banner " + (o.result === "win" ? "won" : "drawn");
        banner.innerHTML = o.result === "win"
          ? "★ " + esc(name(o.seat)) + " wins" + (o.last_standing ? " as the last player left" : "") + " in round " + (G.rounds || f.round || 0)
          : o.result === "draw" ? "= Draw " + (o.round_cap ? "after " + (G.rounds || "") + " rounds (round cap)" : "(every player forfeited)")
          : "Game unfinished";
        if (G.tally_matches_final === false)
          banner.innerHTML += '<div class="warn">⚠ The herds counted from this record’s events differ from the final position it states: check it with <code>arena verify</code>.</div>';
      } else {
        banner.hidden = true;
      }
    }

    Arena.playback({
      show: show, last: last, frame: function () { return frame; },
      speeds: SPEEDS, unit: ["turn", "turns"], start: p.turn, toggleLarge: toggleLarge
    });
  }
})();
