// nxbatch serve: the little the pages do with a script. Every form and link
// works without it; with it, a file can be dropped on the upload zone, a
// send's progress follows server-sent events, and focus lands where a fix
// left it.
(function () {
  "use strict";

  // Focus what the server marked after a swap: the next cell to fix, or
  // the status that says what the fix did.
  function focusMarked(root) {
    var el = (root || document).querySelector("[data-focus]");
    if (el) { el.focus(); }
  }
  document.addEventListener("htmx:afterSwap", function (e) { focusMarked(e.target); });

  // Drag and drop onto the upload zone: the dropped file becomes the file
  // input's, and the form is sent.
  function setupDrop() {
    var zone = document.getElementById("drop");
    var input = document.getElementById("file");
    var form = document.getElementById("upload");
    if (!zone || !input || !form) { return; }
    ["dragenter", "dragover"].forEach(function (t) {
      zone.addEventListener(t, function (e) { e.preventDefault(); zone.classList.add("over"); });
    });
    ["dragleave", "drop"].forEach(function (t) {
      zone.addEventListener(t, function (e) { e.preventDefault(); zone.classList.remove("over"); });
    });
    zone.addEventListener("drop", function (e) {
      if (!e.dataTransfer || !e.dataTransfer.files.length) { return; }
      input.files = e.dataTransfer.files;
      form.requestSubmit();
    });
  }

  // The upload form: a file over the limit is refused here, before it is
  // sent (the server refuses it too, with the same sentence); a file sent
  // shows that the server is reading it.
  function setupUpload() {
    var form = document.getElementById("upload");
    var input = document.getElementById("file");
    if (!form || !input) { return; }
    var refused = document.getElementById("upload-toolarge");
    var busy = document.getElementById("upload-busy");
    form.addEventListener("submit", function (e) {
      var max = parseInt(form.dataset.maxBytes || "0", 10);
      var f = input.files && input.files[0];
      if (f && max > 0 && f.size > max) {
        e.preventDefault();
        refused.textContent = form.dataset.tooLarge;
        refused.hidden = false;
        input.focus();
        return;
      }
      refused.hidden = true;
      form.setAttribute("aria-busy", "true");
      if (busy) { busy.hidden = false; }
    });
  }

  // The progress of a send, from the server's events.
  function setupProgress() {
    var box = document.getElementById("progress");
    if (!box || !window.EventSource || box.dataset.state === "done") { return; }
    var bar = document.getElementById("bar");
    var count = document.getElementById("done-count");
    var eta = document.getElementById("eta");
    var counts = document.getElementById("live-counts");
    var said = document.getElementById("said");
    var link = document.getElementById("result-link");
    var stop = document.getElementById("stop-form");
    var heading = document.getElementById("send-heading");
    var lost = document.getElementById("lost");
    var es = new EventSource(box.dataset.events);
    // The server went away (stopped, killed, the machine asleep): the tab
    // says so rather than freezing, and when the server answers again it
    // shows what was sent, which the journal kept.
    function serverLost() {
      if (box.dataset.state === "done") { return; }
      lost.textContent = box.dataset.lost;
      lost.hidden = false;
      // Neither a time left nor a stop button mean anything now.
      eta.textContent = "";
      if (stop) { stop.hidden = true; }
      if (es.readyState === EventSource.CLOSED) { waitBack(); }
    }
    var waiting = false;
    function waitBack() {
      if (waiting) { return; }
      waiting = true;
      // Any answer means the server is back (a new start may ask for the
      // login again, which then leads to the result); only a failed
      // connection means it is still away.
      (function poll() {
        fetch(box.dataset.result, { credentials: "same-origin", cache: "no-store", redirect: "manual" }).then(function () {
          lost.textContent = box.dataset.returned;
          window.location.assign(box.dataset.result);
        }).catch(function () { window.setTimeout(poll, 2000); });
      })();
    }
    es.addEventListener("error", serverLost);
    function show(p) {
      lost.hidden = true;
      if (stop && p.state !== "done") { stop.hidden = false; }
      box.dataset.state = p.state;
      bar.value = p.percent;
      bar.textContent = p.percent + "%";
      count.textContent = p.count;
      if (heading && p.heading && heading.textContent !== p.heading) {
        heading.textContent = p.heading;
        document.title = p.heading + " · nxbatch";
      }
      eta.textContent = p.eta || "";
      var ul = document.createElement("ul");
      ul.className = "counts";
      (p.counts || []).forEach(function (c) {
        var li = document.createElement("li");
        li.className = "tone-" + c.Tone;
        li.dataset.status = c.Status;
        li.textContent = c.Text;
        ul.appendChild(li);
      });
      counts.replaceChildren(ul);
      said.textContent = p.said || "";
    }
    es.addEventListener("progress", function (e) { show(JSON.parse(e.data)); });
    es.addEventListener("done", function (e) {
      var p = JSON.parse(e.data);
      show(p);
      es.close();
      link.hidden = false;
      if (stop) { stop.hidden = true; }
      link.querySelector("a").focus();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setupDrop();
    setupUpload();
    setupProgress();
    focusMarked(document);
  });
})();
