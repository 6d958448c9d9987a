// SPDX-License-Identifier: LGPL-2.1
/*
 * flame.js - the off-CPU flame graph: charged time by process, cause and
 * stack (the task's own frames under the kernel's, outermost first), as
 * Brendan Gregg's off-CPU flame graphs draw it, with our causes as a
 * level of their own.  Widths are time; the root is the global table's
 * charged total (kernel threads only when it counts them).  A click
 * zooms to a frame, the search colours what matches, the pointer says a
 * frame's total and share.
 */
'use strict';

LT.FLAME_ROW = 17;		/* pixels per level */

LT.flameNode = function (parent, name, kind, cause) {
	var key = kind + '\u0000' + name, n;

	if (parent) {
		n = parent.kids.get(key);
		if (n)
			return n;
	}
	n = { name: name, kind: kind, cause: cause, value: 0, kids: new Map(),
	      parent: parent, depth: parent ? parent.depth + 1 : 0, x0: 0 };
	if (parent)
		parent.kids.set(key, n);
	return n;
};

/* The tree of the data's stacks: merged where their frames agree. */
LT.flameTree = function (withKt) {
	var root = LT.flameNode(null, 'all', 'root'), maxDepth = 0;

	LT.data.flame.procs.forEach(function (p) {
		var pn;

		if (p[2] && !withKt)
			return;
		pn = LT.flameNode(root, LT.name(p[0]) + ' (' + p[1] + ')', 'proc');
		pn.value += p[3];
		root.value += p[3];
		p[4].forEach(function (row) {
			var cn = LT.flameNode(pn, LT.causeText(row[0]), 'cause', row[0]);

			cn.value += row[1];
			row[2].forEach(function (st) {
				var n = cn, ns = st[0];

				st[2].forEach(function (f) {
					n = LT.flameNode(n, LT.name(f), 'user');
					n.value += ns;
				});
				st[1].forEach(function (f) {
					n = LT.flameNode(n, LT.name(f), 'kernel');
					n.value += ns;
				});
				maxDepth = Math.max(maxDepth, n.depth);
			});
		});
		maxDepth = Math.max(maxDepth, 2);
	});
	/* widest first, each child's offset in time from its parent's */
	(function place(n) {
		var x = n.x0;

		n.list = Array.from(n.kids.values()).sort(function (a, b) {
			return b.value - a.value || (a.name < b.name ? -1 : 1);
		});
		n.list.forEach(function (k) {
			k.x0 = x;
			x += k.value;
			place(k);
		});
	})(root);
	root.maxDepth = maxDepth;
	return root;
};

LT.frameColour = function (n) {
	var h = LT.hash(n.name);

	switch (n.kind) {
	case 'root':
		return '#c8c8c8';
	case 'proc':
		return 'hsl(' + (250 + h % 30) + ',45%,' + (72 + h % 10) + '%)';
	case 'cause':
		return LT.causeColour(n.cause);
	case 'user':
		return 'hsl(' + (165 + h % 30) + ',50%,' + (55 + h % 15) + '%)';
	default:
		return 'hsl(' + (h % 50) + ',80%,' + (58 + h % 12) + '%)';
	}
};

LT.KIND_NAMES = { root: 'all charged time', proc: 'process',
		  cause: 'cause', kernel: 'kernel frame', user: 'user frame' };

LT.flameMatches = function (n, q) {
	return q && n.name.toLowerCase().indexOf(q) >= 0;
};

LT.flameDraw = function () {
	var f = LT.flame, box = document.getElementById('flame-chart');
	var W = LT.width(box), R = LT.FLAME_ROW;
	var H = (f.root.maxDepth + 1) * R + 4, svg, zoom = f.zoom;
	var scale = zoom.value > 0 ? W / zoom.value : 0, drawn = [], a;
	var q = f.query, matched = 0;

	LT.clear(box);
	svg = LT.svg('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H,
			      class: 'flame', role: 'img',
			      'aria-label': 'off-CPU flame graph' }, box);

	function frame(n, x, w, dim) {
		var g = LT.svg('g', { class: 'fn k-' + n.kind + (dim ? ' dim' : ''),
				      'data-i': drawn.length, 'data-ns': n.value },
			       svg);
		var y = H - (n.depth + 1) * R, chars = Math.floor((w - 6) / 6.6);
		var hit = LT.flameMatches(n, q);

		if (n === f.root)
			g.id = 'flame-root';
		LT.svg('rect', { x: x.toFixed(2), y: y, width: Math.max(w - 0.5, 0.5).toFixed(2),
				 height: R - 1, rx: 2,
				 fill: hit ? '#e040fb' : LT.frameColour(n) }, g);
		if (chars >= 3) {
			LT.svg('text', { x: (x + 3).toFixed(2), y: y + R - 5 }, g)
				.textContent = n.name.length <= chars ? n.name :
					n.name.slice(0, chars - 2) + '..';
		}
		drawn.push(n);
	}

	function down(n, hitAbove) {
		var w = n.value * scale, hit = LT.flameMatches(n, q);

		/* the root always, so that an empty graph still says 0 */
		if (n === f.root && w < 0.5)
			w = W;
		if (w < 0.5)
			return;
		if (hit && !hitAbove)
			matched += n.value;
		frame(n, (n.x0 - zoom.x0) * scale, w, false);
		n.list.forEach(function (k) {
			down(k, hitAbove || hit);
		});
	}

	/* the zoomed frame's ancestors span the width, dimmed: click to go back */
	for (a = zoom.parent; a; a = a.parent)
		frame(a, 0, W, true);
	down(zoom, (function () {
		for (a = zoom.parent; a; a = a.parent)
			if (LT.flameMatches(a, q))
				return true;
		return false;
	})());
	f.drawn = drawn;
	document.getElementById('flame-info').textContent =
		(zoom !== f.root ? 'zoomed to ' + zoom.name + ': ' + LT.dur(zoom.value) +
		 ', ' + LT.pct(zoom.value, f.root.value) + ' of all. ' : '') +
		(q ? 'matched: ' + LT.dur(matched) + ', ' +
		 LT.pct(matched, zoom.value) + (zoom !== f.root ? ' of it' : '') : '');
};

LT.flameNodeAt = function (ev) {
	var g = ev.target.closest ? ev.target.closest('g.fn') : null;

	return g ? LT.flame.drawn[Number(g.getAttribute('data-i'))] : null;
};

LT.flameBuild = function () {
	var kt = document.getElementById('flame-kt').checked;

	LT.flame.root = LT.flameTree(kt);
	LT.flame.zoom = LT.flame.root;
	LT.flameDraw();
};

LT.initFlame = function () {
	var box = document.getElementById('flame-chart');
	var search = document.getElementById('flame-search');

	if (!box)
		return;
	LT.flame = { query: '' };
	document.getElementById('flame-kt').checked = LT.data.flame.kt;
	LT.flameBuild();
	if (!LT.flame.root.value)
		LT.el('p', { class: 'empty' }, 'No charged time to draw.', box);
	box.addEventListener('click', function (ev) {
		var n = LT.flameNodeAt(ev);

		if (!n)
			return;
		LT.flame.zoom = n;
		LT.flameDraw();
	});
	box.addEventListener('mousemove', function (ev) {
		var n = LT.flameNodeAt(ev), f = LT.flame, lines;

		if (!n) {
			LT.tip(ev, null);
			return;
		}
		lines = [n.name, LT.KIND_NAMES[n.kind] + ': ' + LT.dur(n.value) +
			 ', ' + LT.pct(n.value, f.root.value) + ' of all'];
		if (f.zoom !== f.root && n !== f.zoom)
			lines.push(LT.pct(n.value, f.zoom.value) + ' of ' + f.zoom.name);
		LT.tip(ev, lines);
	});
	box.addEventListener('mouseleave', function (ev) {
		LT.tip(ev, null);
	});
	search.addEventListener('input', function () {
		LT.flame.query = search.value.trim().toLowerCase();
		LT.flameDraw();
	});
	document.getElementById('flame-reset').addEventListener('click', function () {
		LT.flame.zoom = LT.flame.root;
		LT.flameDraw();
	});
	document.getElementById('flame-kt').addEventListener('change', LT.flameBuild);
	window.addEventListener('resize', function () {
		LT.flameDraw();
	});
};
