// SPDX-License-Identifier: LGPL-2.1
/*
 * flame.js - the off-CPU flame graph: charged time by process, cause and
 * stack (the task's own frames under the kernel's, outermost first), as
 * Brendan Gregg's off-CPU flame graphs draw it, with our causes as a
 * level of their own.  Widths are time; the root is the global table's
 * charged total (kernel threads only when it counts them).  A click
 * zooms to a frame, the search colours what matches, the pointer says a
 * frame's total and share.
 *
 * A graph is an object: its elements' id prefix (ID-chart, ID-root,
 * ID-info, ID-search, ID-reset, ID-kt), its tree(withKt) and its words;
 * LT.flame is this one, LT.wfor (wfor.js) the "waiting for" graph.
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
	LT.placeFlame(root);
	root.maxDepth = maxDepth;
	return root;
};

/* A graph's nodes laid out: widest first, each child's offset in time
 * from its parent's (the off-CPU and the waiting-for graphs alike). */
LT.placeFlame = function place(n) {
	var x = n.x0;

	n.list = Array.from(n.kids.values()).sort(function (a, b) {
		return b.value - a.value || (a.name < b.name ? -1 : 1);
	});
	n.list.forEach(function (k) {
		k.x0 = x;
		x += k.value;
		place(k);
	});
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

LT.flameDraw = function (f) {
	var box = document.getElementById(f.id + '-chart');
	var W = LT.width(box), R = LT.FLAME_ROW;
	var H = (f.root.maxDepth + 1) * R + 4, svg, zoom = f.zoom;
	var scale = zoom.value > 0 ? W / zoom.value : 0, drawn = [], a;
	var q = f.query, matched = 0;

	LT.clear(box);
	svg = LT.svg('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H,
			      class: 'flame', role: 'img',
			      'aria-label': f.label }, box);

	function frame(n, x, w, dim) {
		var g = LT.svg('g', { class: 'fn k-' + n.kind + (dim ? ' dim' : ''),
				      'data-i': drawn.length, 'data-ns': n.value },
			       svg);
		var y = H - (n.depth + 1) * R, chars = Math.floor((w - 6) / 6.6);
		var hit = LT.flameMatches(n, q);

		if (n === f.root)
			g.id = f.id + '-root';
		LT.svg('rect', { x: x.toFixed(2), y: y, width: Math.max(w - 0.5, 0.5).toFixed(2),
				 height: R - 1, rx: 2,
				 fill: hit ? '#e040fb' : f.colour(n) }, g);
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
	document.getElementById(f.id + '-info').textContent =
		(zoom !== f.root ? 'zoomed to ' + zoom.name + ': ' + LT.dur(zoom.value) +
		 ', ' + LT.pct(zoom.value, f.root.value) + ' of all. ' : '') +
		(q ? 'matched: ' + LT.dur(matched) + ', ' +
		 LT.pct(matched, zoom.value) + (zoom !== f.root ? ' of it' : '') : '');
};

LT.flameNodeAt = function (f, ev) {
	var g = ev.target.closest ? ev.target.closest('g.fn') : null;

	return g ? f.drawn[Number(g.getAttribute('data-i'))] : null;
};

LT.flameBuild = function (f) {
	var kt = document.getElementById(f.id + '-kt').checked;

	f.root = f.tree(kt);
	f.zoom = f.root;
	LT.flameDraw(f);
};

/* Graph @f drawn in its place, and its controls wired; false: no place. */
LT.flameInit = function (f) {
	var box = document.getElementById(f.id + '-chart');
	var search = document.getElementById(f.id + '-search');

	if (!box)
		return false;
	f.query = '';
	document.getElementById(f.id + '-kt').checked = LT.data.flame.kt;
	LT.flameBuild(f);
	if (!f.root.value)
		LT.el('p', { class: 'empty' }, f.empty, box);
	box.addEventListener('click', function (ev) {
		var n = LT.flameNodeAt(f, ev);

		if (!n)
			return;
		f.zoom = n;
		LT.flameDraw(f);
	});
	box.addEventListener('mousemove', function (ev) {
		var n = LT.flameNodeAt(f, ev), lines;

		if (!n) {
			LT.tip(ev, null);
			return;
		}
		lines = [n.name, f.kinds[n.kind] + ': ' + LT.dur(n.value) +
			 ', ' + LT.pct(n.value, f.root.value) + ' of all'];
		if (f.zoom !== f.root && n !== f.zoom)
			lines.push(LT.pct(n.value, f.zoom.value) + ' of ' + f.zoom.name);
		LT.tip(ev, lines);
	});
	box.addEventListener('mouseleave', function (ev) {
		LT.tip(ev, null);
	});
	search.addEventListener('input', function () {
		f.query = search.value.trim().toLowerCase();
		LT.flameDraw(f);
	});
	document.getElementById(f.id + '-reset').addEventListener('click', function () {
		f.zoom = f.root;
		LT.flameDraw(f);
	});
	document.getElementById(f.id + '-kt').addEventListener('change', function () {
		LT.flameBuild(f);
	});
	window.addEventListener('resize', function () {
		LT.flameDraw(f);
	});
	return true;
};

LT.initFlame = function () {
	LT.flame = { id: 'flame', label: 'off-CPU flame graph', tree: LT.flameTree,
		     colour: LT.frameColour, kinds: LT.KIND_NAMES,
		     empty: 'No charged time to draw.' };
	LT.flameInit(LT.flame);
};
