// The Test button of /me (#test-button): sends the editor's code and the chosen opponents to
// POST /api/tests and shows what came back in #test-result: the verdict (a build error with the
// toolchain's message, or the check's), the check's report, each game (seats, result, a link to
// its replay) and the tested agent's faults, each once with its count. No version is made.
// Text from the server is written with textContent, never as HTML.
"use strict";

(function () {
  var button = document.getElementById("test-button");
  var out = document.getElementById("test-result");
  var area = document.getElementById("source");
  var langSelect = document.getElementById("source-lang");
  if (!button || !out || !area || !langSelect) return;

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    out.appendChild(e);
    return e;
  }

  function code() {
    return window.arenaEditor ? window.arenaEditor.state.doc.toString() : area.value;
  }

  function show(report) {
    out.textContent = "";
    var verdict = el(
      "p",
      report.accepted ? "Passed the check" : "Failed: " + (report.reason || "refused"),
      report.accepted ? "passed" : "failed"
    );
    verdict.id = "test-verdict";
    verdict.setAttribute("data-verdict", report.accepted ? "passed" : "failed");
    var details = el("details");
    details.open = !report.accepted;
    var summary = document.createElement("summary");
    summary.textContent = report.accepted ? "Check report" : "Build or check report";
    details.appendChild(summary);
    var pre = document.createElement("pre");
    pre.id = "test-report";
    pre.textContent = report.report;
    details.appendChild(pre);
    if (report.games.length) {
      var wins = report.games.filter(function (g) { return g.result === "won"; }).length;
      el("p", "Games: " + wins + " won of " + report.games.length + ".");
      var list = el("ol");
      list.id = "test-games";
      report.games.forEach(function (g) {
        var li = document.createElement("li");
        var seats = g.seats.map(function (s, i) { return "seat " + i + ": " + s; }).join(", ");
        var text = seats + ": " + (g.result === "won" ? "you won" : g.result === "lost" ? "you lost" : "draw");
        if (g.scores) text += " (" + g.scores.join(" : ") + ")";
        if (g.faults) text += ", " + g.faults + " fault(s) of yours";
        li.appendChild(document.createTextNode(text + " "));
        var a = document.createElement("a");
        a.href = g.replay;
        a.target = "_blank";
        a.rel = "noopener";
        a.textContent = "replay";
        a.className = "test-replay";
        li.appendChild(a);
        list.appendChild(li);
      });
    }
    if (report.faults.length) {
      el("h3", "Your agent's faults in these games");
      report.faults.forEach(function (f) {
        var more = f.count > 1 ? " (the same fault " + (f.count - 1) + " more time(s))" : "";
        el("pre", f.kind + more + ":\n" + f.detail, "test-fault");
      });
    }
    if (report.games.length) {
      el("p", "The replays are kept until " + new Date(report.kept_until_ms).toLocaleTimeString() + ".", "hint");
    }
  }

  button.addEventListener("click", function () {
    var opponents = [];
    document.querySelectorAll("#test-opponents input[name=opponent]:checked").forEach(function (c) {
      opponents.push(c.value);
    });
    var lang = langSelect.value;
    var entry = lang === "javascript" ? "agent.js" : "agent.py";
    button.disabled = true;
    out.textContent = "";
    el("p", "Testing: building, checking, then playing (a build takes seconds to a minute)…", "muted").id = "test-running";
    fetch("/api/tests", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ lang: lang, entry: entry, files: [{ path: entry, text: code() }], opponents: opponents }),
    })
      .then(function (r) {
        return r.json().then(function (body) { return { status: r.status, body: body }; });
      })
      .then(function (r) {
        if (r.status === 200) {
          show(r.body);
        } else {
          out.textContent = "";
          el("p", "The test was not run: " + (r.body.error || "HTTP " + r.status), "failed").id = "test-error";
        }
      })
      .catch(function (e) {
        out.textContent = "";
        el("p", "The test failed: " + e, "failed").id = "test-error";
      })
      .then(function () { button.disabled = false; });
  });
})();
