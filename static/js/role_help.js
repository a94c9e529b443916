// The signup form: under the public-role select, what the chosen role does (its text from the list below it).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var select = document.querySelector("#fm-signup select[name=public_role]");
    var help = document.getElementById("fm-role-help");
    if (!select || !help) { return; }
    select.setAttribute("aria-describedby", "fm-role-help");
    function show() {
      var dd = document.querySelector('#fm-role-list dd[data-role="' + select.value + '"]');
      help.hidden = !dd;
      help.textContent = "";
      if (!dd) { return; }
      var name = document.createElement("strong");
      name.textContent = select.options[select.selectedIndex].text;
      help.appendChild(name);
      help.appendChild(document.createTextNode(": "));
      Array.prototype.forEach.call(dd.childNodes, function (n) { help.appendChild(n.cloneNode(true)); });
    }
    select.addEventListener("change", show);
    show();
  });
})();
