// The "turn on notifications in this browser" button (gm.chatpush): register the service worker, subscribe with
// the site's VAPID key, put the subscription's JSON into the form and send it; the server checks it.
// Loaded as a file (script-src 'self'): no inline script.
(function () {
  function key(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function setup(form) {
    var status = form.querySelector("[data-status]");
    var field = form.querySelector("input[name=subscription]");
    function say(name) { if (status) status.textContent = status.getAttribute("data-" + name) || ""; }
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      say("unsupported");
      form.querySelector("button[type=submit]").disabled = true;
      return;
    }
    form.addEventListener("submit", function (event) {
      if (field.value) return;  // already filled: let the browser send it
      event.preventDefault();
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") { say("denied"); return null; }
        return navigator.serviceWorker.register(form.getAttribute("data-worker"), {scope: "/"})
          .then(function () { return navigator.serviceWorker.ready; })
          .then(function (registration) {
            return registration.pushManager.getSubscription().then(function (existing) {
              return existing || registration.pushManager.subscribe({
                userVisibleOnly: true, applicationServerKey: key(form.getAttribute("data-key"))});
            });
          })
          .then(function (subscription) {
            field.value = JSON.stringify(subscription.toJSON());
            form.submit();
          });
      }).catch(function () { say("failed"); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("chatpush-subscribe");
    if (form) setup(form);
  });
})();
