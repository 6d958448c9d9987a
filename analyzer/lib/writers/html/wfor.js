// SPDX-License-Identifier: LGPL-2.1
/*
 * wfor.js - the "waiting for" flame graph: charged time by process and
 * cause, as the off-CPU graph has them at the bottom, and above a cause
 * whom its waits waited for: each wait's waker and what it did until the
 * wakeup (running, waiting for a CPU, or a wait of its own, and above
 * that one whom it waited for in turn), as off-wake flame graphs put the
 * waker's stack above the waiter's.  A wait for a CPU has above it who
 * ran instead.  Widths are time; a cause's time past its wakers' is its
 * own.  Drawn, zoomed and searched as flame.js draws its graph.
 */
'use strict';

LT.WFOR_KINDS = ['wait', 'running', 'cpu', 'irq', 'unknown', 'ran'];

LT.WFOR_NAMES = { root: 'all charged time with a waker', proc: 'process',
		  cause: 'the waiter\'s cause', wait: 'the waker\'s own wait',
		  running: 'the waker on a CPU', cpu: 'the waker runnable',
		  irq: 'an interrupt or a timer woke it',
		  unknown: 'the trace cannot say', ran: 'ran instead on its CPU' };

LT.wforTree = function (withKt) {
	var root = LT.flameNode(null, 'all', 'root'), maxDepth = 0;

	function add(parent, nodes) {
		nodes.forEach(function (nd) {
			var n = LT.flameNode(parent, LT.name(nd[0]), LT.WFOR_KINDS[nd[1]]);

			n.value += nd[2];
			maxDepth = Math.max(maxDepth, n.depth);
			if (nd[3])
				add(n, nd[3]);
		});
	}

	LT.data.wfor.procs.forEach(function (p) {
		var pn;

		if (p[2] && !withKt)
			return;
		pn = LT.flameNode(root, LT.name(p[0]) + ' (' + p[1] + ')', 'proc');
		p[3].forEach(function (row) {
			var cn = LT.flameNode(pn, LT.causeText(row[0]), 'cause', row[0]);

			cn.value += row[1];
			pn.value += row[1];
			root.value += row[1];
			add(cn, row[2]);
		});
		maxDepth = Math.max(maxDepth, 2);
	});
	LT.placeFlame(root);
	root.maxDepth = maxDepth;
	return root;
};

LT.wforColour = function (n) {
	var h = LT.hash(n.name);

	switch (n.kind) {
	case 'wait':
		return 'hsl(' + (200 + h % 30) + ',55%,' + (62 + h % 12) + '%)';
	case 'running':
		return 'hsl(' + (h % 25) + ',80%,' + (60 + h % 10) + '%)';
	case 'cpu':
		return 'hsl(' + (45 + h % 10) + ',85%,' + (58 + h % 10) + '%)';
	case 'irq':
		return 'hsl(' + (285 + h % 20) + ',40%,' + (70 + h % 10) + '%)';
	case 'unknown':
		return '#b8b8b8';
	case 'ran':
		return 'hsl(' + (20 + h % 20) + ',75%,' + (62 + h % 10) + '%)';
	default:
		return LT.frameColour(n);
	}
};

LT.initWfor = function () {
	LT.wfor = { id: 'wfor', label: 'waiting for flame graph', tree: LT.wforTree,
		    colour: LT.wforColour, kinds: LT.WFOR_NAMES,
		    empty: 'No wait with a waker to draw (a trace without ' +
			   'wakeup events, or a report saved before schema 1.3).' };
	LT.flameInit(LT.wfor);
};
