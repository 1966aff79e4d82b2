// The report's cells table, sortable and filterable (report_index.c
// embeds this file at build time): a click on a column's head sorts by it
// (again: the other way), the box filters rows by their text, and the view
// is kept in the address (#sort=N&filter=TEXT&all=1; N counts columns
// from 1, negative descending) so it can be linked to. The columns of
// class "more" are hidden until the "every column" box is ticked, so the
// table fits the page; a cell's data-v, where it has one, is what it
// sorts by (29.4k shown, 29400 sorted). Without script it is the plain
// table, every column shown.
(function () {
  var t = document.getElementById('cells'), f = document.getElementById('filter');
  if (!t || !f) return;
  var rows = Array.prototype.slice.call(t.rows, 1), col = 0;
  function key(r, c) {
    var d = r.cells[c] ? r.cells[c].getAttribute('data-v') : null;
    if (d !== null && !isNaN(parseFloat(d))) return parseFloat(d);
    var s = r.cells[c] ? r.cells[c].textContent : '', v = parseFloat(s);
    return /^\s*-?[0-9.]/.test(s) && !isNaN(v) ? v : s.toLowerCase();
  }
  function sort(n) {
    var c = Math.abs(n) - 1, d = n < 0 ? -1 : 1;
    if (c < 0 || c >= t.rows[0].cells.length) return;
    rows.sort(function (a, b) {
      var x = key(a, c), y = key(b, c);
      if (typeof x !== typeof y) return (typeof x === 'number' ? -1 : 1) * d;
      return (x < y ? -1 : x > y ? 1 : 0) * d;
    });
    rows.forEach(function (r) { r.parentNode.appendChild(r); });
    col = n;
  }
  function filter(q) {
    var shown = 0;
    q = q.toLowerCase();
    rows.forEach(function (r) {
      r.hidden = q !== '' && r.textContent.toLowerCase().indexOf(q) < 0;
      shown += r.hidden ? 0 : 1;
    });
    t.setAttribute('data-shown', shown);
  }
  var all = document.getElementById('allcols'), box = all ? all.querySelector('input') : null;
  function columns(every) {
    if (every) t.classList.remove('compact'); else t.classList.add('compact');
  }
  function keep() {
    history.replaceState(null, '', '#sort=' + col + '&filter=' + encodeURIComponent(f.value) +
                         (box && box.checked ? '&all=1' : ''));
  }
  Array.prototype.forEach.call(t.rows[0].cells, function (th, c) {
    th.style.cursor = 'pointer';
    th.addEventListener('click', function () { sort(col === c + 1 ? -(c + 1) : c + 1); keep(); });
  });
  f.hidden = false;
  f.addEventListener('input', function () { filter(f.value); keep(); });
  var h = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
    var i = kv.indexOf('=');
    if (i > 0) h[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
  });
  if (h.sort) sort(parseInt(h.sort, 10) || 0);
  if (box) {
    all.hidden = false;
    box.checked = h.all === '1';
    columns(box.checked);
    box.addEventListener('change', function () { columns(box.checked); keep(); });
  }
  f.value = h.filter || '';
  filter(f.value);
})();
