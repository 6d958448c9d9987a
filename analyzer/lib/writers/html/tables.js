// SPDX-License-Identifier: LGPL-2.1
/*
 * tables.js - the tables are HTML already (they read and print without
 * the script); this sorts them by a column, filters the processes by
 * name or pid, and opens a process's section when it is linked to.
 */
'use strict';

LT.sortBy = function (table, col, th) {
	var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
	var numeric = th.getAttribute('data-t') === 'n';
	/* numbers largest first at first, names from A */
	var desc = th.getAttribute('aria-sort') ? th.getAttribute('aria-sort') !== 'descending'
						: numeric;

	rows.forEach(function (r, i) {
		r.ltIndex = i;
	});
	rows.sort(function (a, b) {
		var ca = a.cells[col], cb = b.cells[col], d;

		if (numeric) {
			d = Number(ca.getAttribute('data-v')) -
			    Number(cb.getAttribute('data-v'));
		} else {
			d = ca.textContent.localeCompare(cb.textContent);
		}
		/* a stable sort either way: ties keep their order */
		return (desc ? -d : d) || a.ltIndex - b.ltIndex;
	});
	rows.forEach(function (r) {
		body.appendChild(r);
	});
	Array.prototype.forEach.call(th.parentNode.cells, function (c) {
		c.removeAttribute('aria-sort');
	});
	th.setAttribute('aria-sort', desc ? 'descending' : 'ascending');
};

LT.initSort = function () {
	document.querySelectorAll('table.sortable').forEach(function (table) {
		var heads = table.tHead.rows[0].cells;

		Array.prototype.forEach.call(heads, function (th, col) {
			th.tabIndex = 0;
			th.title = 'sort by ' + th.textContent;
			th.addEventListener('click', function () {
				LT.sortBy(table, col, th);
			});
			th.addEventListener('keydown', function (ev) {
				if (ev.key === 'Enter' || ev.key === ' ') {
					ev.preventDefault();
					LT.sortBy(table, col, th);
				}
			});
		});
	});
};

/*
 * A process passes "post" (in its name), "^post" (its start), "14" (pid)
 * or "post(14" (a piece of "postgres(14)", as the list names it).
 */
LT.matches = function (el, f) {
	var name = (el.getAttribute('data-name') || '').toLowerCase();
	var pid = el.getAttribute('data-pid') || '';
	var both = name + '(' + pid + ')';

	if (!f)
		return true;
	if (f[0] === '^')
		return both.startsWith(f.slice(1)) || pid.startsWith(f.slice(1));
	return name.indexOf(f) >= 0 || pid === f ||
	       (f.indexOf('(') >= 0 && both.indexOf(f) >= 0);
};

LT.filter = function () {
	var input = document.getElementById('filter');
	var f = input ? input.value.trim().toLowerCase() : '';
	var shown = 0, all = 0;

	document.querySelectorAll('#proc-list tbody tr').forEach(function (tr) {
		var ok = LT.matches(tr, f);

		tr.hidden = !ok;
		shown += ok;
		all++;
	});
	document.querySelectorAll('details.proc').forEach(function (d) {
		d.hidden = !LT.matches(d, f);
	});
	document.getElementById('filter-count').textContent = f ?
		shown + ' of ' + all + ' processes' :
		all + (all === 1 ? ' process' : ' processes');
};

/* #p3: open that process's section (a link, the viewer's focus). */
LT.openHash = function () {
	var id = location.hash.slice(1), el = id ? document.getElementById(id) : null;

	if (el && el.tagName === 'DETAILS') {
		el.hidden = false;
		el.open = true;
		el.scrollIntoView();
	}
};

LT.initTables = function () {
	var input = document.getElementById('filter'), opened = [];

	LT.initSort();
	if (input) {
		input.addEventListener('input', LT.filter);
		LT.filter();
	}
	window.addEventListener('hashchange', LT.openHash);
	LT.openHash();
	if (LT.data.focus !== undefined) {
		location.hash = '#p' + LT.data.focus;
		LT.openHash();
	}
	/* printed, every process shown is open; as it was after */
	window.addEventListener('beforeprint', function () {
		document.querySelectorAll('details.proc:not([hidden]):not([open])')
			.forEach(function (d) {
				d.open = true;
				opened.push(d);
			});
	});
	window.addEventListener('afterprint', function () {
		opened.forEach(function (d) {
			d.open = false;
		});
		opened = [];
	});
};
