// The Little Animal Farm viewer's own part (the chrome, report/viewer/viewer.js, loads the game and
// runs the controls): the game turn by turn, every herd and the stock, the dice, and the animal
// pictures. Frame 0 is the position before the first turn; frame k the position after turn k.
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
  // The animal pictures, drawn once and used by reference. Every picture is also labelled in words.
  var PICTURES = `<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false">
  <defs>
    <symbol id="pic-rabbit" viewBox="0 0 64 64">
      <ellipse cx="17" cy="15" rx="4.5" ry="12" transform="rotate(-12 17 15)" fill="#d8cfc4" stroke="#222" stroke-width="2"/>
      <ellipse cx="27" cy="14" rx="4.5" ry="12" transform="rotate(10 27 14)" fill="#d8cfc4" stroke="#222" stroke-width="2"/>
      <ellipse cx="17" cy="16" rx="1.8" ry="8" transform="rotate(-12 17 16)" fill="#f2b8c6"/>
      <ellipse cx="27" cy="15" rx="1.8" ry="8" transform="rotate(10 27 15)" fill="#f2b8c6"/>
      <ellipse cx="38" cy="44" rx="19" ry="14" fill="#d8cfc4" stroke="#222" stroke-width="2"/>
      <circle cx="57" cy="42" r="5" fill="#fff" stroke="#222" stroke-width="2"/>
      <circle cx="22" cy="33" r="11" fill="#d8cfc4" stroke="#222" stroke-width="2"/>
      <circle cx="18" cy="31" r="2" fill="#111"/>
      <circle cx="12" cy="36" r="1.8" fill="#d9667f"/>
      <ellipse cx="30" cy="56" rx="6" ry="3" fill="#d8cfc4" stroke="#222" stroke-width="2"/>
    </symbol>
    <symbol id="pic-sheep" viewBox="0 0 64 64">
      <rect x="22" y="44" width="4" height="14" fill="#222"/><rect x="44" y="44" width="4" height="14" fill="#222"/>
      <g fill="#fbfbf5" stroke="#222" stroke-width="2">
        <circle cx="26" cy="30" r="9"/><circle cx="38" cy="26" r="10"/><circle cx="50" cy="31" r="9"/>
        <circle cx="30" cy="42" r="9"/><circle cx="45" cy="42" r="9"/><ellipse cx="38" cy="35" rx="16" ry="10" stroke="none"/>
      </g>
      <ellipse cx="14" cy="34" rx="7" ry="9.5" fill="#2b2b2b"/>
      <ellipse cx="9" cy="28" rx="5" ry="2.5" transform="rotate(-25 9 28)" fill="#2b2b2b"/>
      <circle cx="12" cy="32" r="1.7" fill="#fff"/>
    </symbol>
    <symbol id="pic-pig" viewBox="0 0 64 64">
      <rect x="22" y="46" width="6" height="11" rx="2" fill="#e98aa2" stroke="#222" stroke-width="2"/>
      <rect x="42" y="46" width="6" height="11" rx="2" fill="#e98aa2" stroke="#222" stroke-width="2"/>
      <path d="M55 36 q8 -2 5 -8 q-3 -4 -6 0" fill="none" stroke="#222" stroke-width="2"/>
      <ellipse cx="36" cy="38" rx="21" ry="15" fill="#f6aec0" stroke="#222" stroke-width="2"/>
      <path d="M16 25 l4 -10 l7 8 z" fill="#e98aa2" stroke="#222" stroke-width="2" stroke-linejoin="round"/>
      <ellipse cx="12" cy="39" rx="6" ry="7" fill="#e98aa2" stroke="#222" stroke-width="2"/>
      <circle cx="10.5" cy="37" r="1.4" fill="#222"/><circle cx="10.5" cy="41" r="1.4" fill="#222"/>
      <circle cx="21" cy="32" r="2" fill="#111"/>
    </symbol>
    <symbol id="pic-cow" viewBox="0 0 64 64">
      <rect x="22" y="42" width="5" height="16" fill="#fff" stroke="#222" stroke-width="2"/>
      <rect x="48" y="42" width="5" height="16" fill="#fff" stroke="#222" stroke-width="2"/>
      <rect x="18" y="22" width="42" height="24" rx="8" fill="#fff" stroke="#222" stroke-width="2"/>
      <path d="M30 23 q6 6 0 12 q-6 4 -8 -2 q-2 -8 8 -10z" fill="#222"/>
      <path d="M46 30 q8 -2 9 6 q-2 8 -10 6 q-4 -6 1 -12z" fill="#222"/>
      <ellipse cx="40" cy="47" rx="5" ry="3" fill="#f2a7b8" stroke="#222" stroke-width="1.5"/>
      <path d="M6 14 q-3 -6 2 -8 M22 14 q3 -6 -2 -8" fill="none" stroke="#6b5b45" stroke-width="3" stroke-linecap="round"/>
      <rect x="5" y="13" width="18" height="22" rx="7" fill="#fff" stroke="#222" stroke-width="2"/>
      <rect x="5" y="27" width="18" height="10" rx="5" fill="#f2a7b8" stroke="#222" stroke-width="2"/>
      <circle cx="10" cy="21" r="1.8" fill="#111"/><circle cx="18" cy="21" r="1.8" fill="#111"/>
    </symbol>
    <symbol id="pic-horse" viewBox="0 0 64 64">
      <rect x="24" y="40" width="4" height="19" fill="#7a4a22" stroke="#222" stroke-width="1.5"/>
      <rect x="48" y="40" width="4" height="19" fill="#7a4a22" stroke="#222" stroke-width="1.5"/>
      <path d="M56 30 q8 6 4 20 q-4 -8 -6 -12z" fill="#3a2412"/>
      <ellipse cx="40" cy="36" rx="18" ry="10" fill="#9a6233" stroke="#222" stroke-width="2"/>
      <path d="M26 32 L18 12 L26 10 L34 30 z" fill="#9a6233" stroke="#222" stroke-width="2" stroke-linejoin="round"/>
      <path d="M18 12 L6 18 Q3 22 8 24 L20 22 z" fill="#9a6233" stroke="#222" stroke-width="2" stroke-linejoin="round"/>
      <path d="M19 12 L22 6 L25 11 z" fill="#9a6233" stroke="#222" stroke-width="1.5"/>
      <path d="M25 10 q6 8 9 20 l-4 0 q-4 -10 -8 -18z" fill="#3a2412"/>
      <circle cx="15" cy="16" r="1.7" fill="#111"/>
    </symbol>
    <symbol id="pic-small_dog" viewBox="0 0 64 64">
      <g transform="translate(8 12) scale(0.8)">
        <path d="M52 30 q8 -8 6 -16" fill="none" stroke="#222" stroke-width="3" stroke-linecap="round"/>
        <rect x="22" y="40" width="5" height="14" fill="#d9b26f" stroke="#222" stroke-width="2"/>
        <rect x="44" y="40" width="5" height="14" fill="#d9b26f" stroke="#222" stroke-width="2"/>
        <ellipse cx="36" cy="36" rx="18" ry="10" fill="#d9b26f" stroke="#222" stroke-width="2"/>
        <circle cx="18" cy="24" r="11" fill="#d9b26f" stroke="#222" stroke-width="2"/>
        <ellipse cx="7" cy="28" rx="5" ry="3.5" fill="#d9b26f" stroke="#222" stroke-width="2"/>
        <circle cx="3.5" cy="27" r="2.2" fill="#111"/>
        <path d="M20 14 q8 2 6 14 q-6 -4 -6 -14z" fill="#7a5a2a" stroke="#222" stroke-width="1.5"/>
        <circle cx="14" cy="21" r="1.8" fill="#111"/>
      </g>
    </symbol>
    <symbol id="pic-big_dog" viewBox="0 0 64 64">
      <path d="M56 28 q8 -6 6 -16" fill="none" stroke="#222" stroke-width="4" stroke-linecap="round"/>
      <rect x="22" y="40" width="7" height="19" fill="#5a4332" stroke="#222" stroke-width="2"/>
      <rect x="46" y="40" width="7" height="19" fill="#5a4332" stroke="#222" stroke-width="2"/>
      <ellipse cx="39" cy="34" rx="21" ry="12" fill="#5a4332" stroke="#222" stroke-width="2"/>
      <circle cx="18" cy="22" r="12" fill="#5a4332" stroke="#222" stroke-width="2"/>
      <rect x="1" y="20" width="14" height="10" rx="4" fill="#5a4332" stroke="#222" stroke-width="2"/>
      <circle cx="3" cy="23" r="2.5" fill="#111"/>
      <path d="M14 11 l4 -8 l5 9z" fill="#3d2c20" stroke="#222" stroke-width="1.5"/>
      <circle cx="16" cy="19" r="2" fill="#fff"/><circle cx="16" cy="19" r="1" fill="#111"/>
      <path d="M22 31 q4 6 10 2" fill="none" stroke="#0072B2" stroke-width="4"/>
    </symbol>
    <symbol id="pic-fox" viewBox="0 0 64 64">
      <path d="M10 10 L22 24 L14 30 z M54 10 L42 24 L50 30 z" fill="#d9651b" stroke="#222" stroke-width="2" stroke-linejoin="round"/>
      <path d="M12 26 Q32 16 52 26 Q50 44 32 58 Q14 44 12 26 z" fill="#e3792b" stroke="#222" stroke-width="2" stroke-linejoin="round"/>
      <path d="M14 32 Q22 40 32 58 Q20 52 14 32z M50 32 Q42 40 32 58 Q44 52 50 32z" fill="#fff"/>
      <circle cx="24" cy="34" r="2.6" fill="#111"/><circle cx="40" cy="34" r="2.6" fill="#111"/>
      <circle cx="32" cy="55" r="3" fill="#111"/>
    </symbol>
    <symbol id="pic-wolf" viewBox="0 0 64 64">
      <path d="M10 6 L24 22 L12 30 z M54 6 L40 22 L52 30 z" fill="#5d636b" stroke="#222" stroke-width="2" stroke-linejoin="round"/>
      <path d="M10 26 Q32 14 54 26 L50 44 L32 60 L14 44 z" fill="#7b828b" stroke="#222" stroke-width="2" stroke-linejoin="round"/>
      <path d="M22 42 L32 60 L42 42 Q32 46 22 42z" fill="#c9ccd1"/>
      <path d="M19 32 l9 3 l-9 2z M45 32 l-9 3 l9 2z" fill="#f0c419" stroke="#111" stroke-width="1"/>
      <circle cx="32" cy="57" r="3" fill="#111"/>
    </symbol>
  </defs>
</svg>`;
  function pic(name, cls) {
    return '<svg class="' + (cls || "pic") + '" viewBox="0 0 64 64" aria-hidden="true"><use href="#pic-' + name + '"></use></svg>';
  }

  function start(G, view) {
    var names = G.players, $ = function (x) { return document.getElementById(x); };
    var frames = [G.initial].concat(G.turns);
    var last = frames.length - 1;
    var hasLogs = G.turns.some(function (t) { return t.logs && t.logs.length; });
    var winner = G.outcome && G.outcome.result === "win" ? G.outcome.seat : null;
    var name = view.name;
    function party(x) { return x === "stock" ? "the stock" : name(x); }
    view.root.innerHTML = PICTURES + '<div class="board"><section id="herds" class="herds" aria-label="Herds and stock"></section>' +
      view.side('<section class="dice-box" aria-label="Dice"><h2>Dice</h2><div id="dice" class="dice"></div></section>') + "</div>";

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
      var f = frames[k], items = [], title;
      if (k === 0) {
        title = "Before the first turn";
        items.push(["other", "•", "Every herd is empty; the stock holds " + herdWords(f.stock) + "."]);
      } else {
        title = "Turn " + f.turn + " · round " + f.round + " · " + name(f.seat);
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
      view.narrate(title, items);
    }

    // `from`: the frame shown before (null at first).
    function draw(k, from) {
      var f = frames[k], before = k > 0 ? frames[k - 1] : null, flash = from === k - 1;
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
      view.logs(hasLogs ? (k > 0 && f.logs) || [] : null);
    }

    return {
      last: last,
      draw: draw,
      position: function (k) { return k === 0 ? "Start (turn 0 of " + last + ")" : "Turn " + k + " of " + last + " · round " + frames[k].round; },
      banner: function (k) {
        var o = G.outcome || {}, f = frames[k];
        return {
          won: o.result === "win",
          html: (o.result === "win"
            ? "★ " + esc(name(o.seat)) + " wins" + (o.last_standing ? " as the last player left" : "") + " in round " + (G.rounds || f.round || 0)
            : o.result === "draw" ? "= Draw " + (o.round_cap ? "after " + (G.rounds || "") + " rounds (round cap)" : "(every player forfeited)")
            : "Game unfinished") +
            (G.tally_matches_final === false ? '<div class="warn">⚠ The herds counted from this record’s events differ from the final position it states: check it with <code>arena verify</code>.</div>' : "")
        };
      }
    };
  }

  Arena.viewer({ title: "replay", unit: ["turn", "turns"], speeds: [0.5, 1, 2, 4, 8, 16, 32], at: "turn", start: start });
})();
