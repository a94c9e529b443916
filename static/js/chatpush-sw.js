// The service worker of gm.chatpush's browser notifications, served at /chatpush-sw.js. A push carries JSON
// {title, body, url, tag, renotify}: a notification with the same tag (a game's deadline warning) replaces the one
// shown; a click opens (or focuses) the game's page.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {body: event.data ? event.data.text() : ""}; }
  event.waitUntil(self.registration.showNotification(data.title || "", {
    body: data.body || "",
    tag: data.tag || undefined,
    renotify: Boolean(data.tag && data.renotify),
    data: {url: data.url || "/"},
    icon: "/static/img/favicon.svg"
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});

self.addEventListener("pushsubscriptionchange", function () {
  // The browser renewed the subscription: the user links this browser again from the channels page (the old
  // endpoint answers 410 and its channel is disabled, with a note in the inbox).
});
