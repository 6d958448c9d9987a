// SPDX-License-Identifier: LGPL-2.1
/*
 * base.js - what the report's pictures share: the data, durations as
 * latency-analyze writes them, colours, SVG elements and the tooltip.
 *
 * Names come from a trace and may hold anything, markup included:
 * they reach the page only as text (textContent, setAttribute), never
 * as markup.
 */
'use strict';

var LT = {};

LT.SVG_NS = 'http://www.w3.org/2000/svg';

/* The data write-html-data.c wrote: names and causes by index. */
LT.load = function () {
	var el = document.getElementById('lt-data');

	LT.data = JSON.parse(el.textContent);
	LT.names = LT.data.names;
};

LT.name = function (i) {
	return LT.names[i] === undefined ? '?' : LT.names[i];
};

/* "fsync (ext4)", as the tables write a cause; -1 is the rest. */
LT.causeText = function (c) {
	var cause, arg;

	if (c < 0)
		return 'other causes';
	cause = LT.data.causes[c];
	arg = LT.name(cause[1]);
	return LT.name(cause[0]) + (arg ? ' (' + arg + ')' : '');
};

/* lt_format_duration(): "123 ns", "4.5 us", "6.7 ms", "1.23 s". */
LT.dur = function (ns) {
	if (ns < 1000)
		return Math.round(ns) + ' ns';
	if (ns < 1e6)
		return (ns / 1e3).toFixed(1) + ' us';
	if (ns < 1e9)
		return (ns / 1e6).toFixed(1) + ' ms';
	return (ns / 1e9).toFixed(2) + ' s';
};

/* A time in the range, as "+1.234567 s" from its start. */
LT.at = function (ns) {
	return (ns < 0 ? '-' : '+') + (Math.abs(ns) / 1e9).toFixed(6) + ' s';
};

/* A tick's time: as many decimals as its @step needs. */
LT.atTick = function (ns, step) {
	var dec = Math.min(6, Math.max(0, -Math.floor(Math.log10(step / 1e9) + 1e-9)));

	return (ns < 0 ? '-' : '+') + (Math.abs(ns) / 1e9).toFixed(dec) + ' s';
};

LT.pct = function (part, whole) {
	return whole > 0 ? (100 * part / whole).toFixed(1) + '%' : '-';
};

/*
 * A colour per cause, the same in every picture: the global table's
 * causes come first in the data, so the worst get the clearest colours;
 * waiting for a CPU is always grey-blue.
 */
LT.PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1',
	'#edc948', '#76b7b2', '#ff9da7', '#9c755f', '#8cd17d', '#d37295',
	'#a0cbe8', '#ffbe7d', '#499894', '#86bcb6', '#d4a6c8'];

LT.hash = function (s) {
	var h = 2166136261, i;

	for (i = 0; i < s.length; i++)
		h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
	return h;
};

LT.causeColour = function (c) {
	var cause;

	if (c < 0)
		return '#bab0ac';
	cause = LT.data.causes[c];
	if (cause && cause[2] === 'scheduler')
		return '#7f8fa6';
	if (c < LT.PALETTE.length)
		return LT.PALETTE[c];
	return 'hsl(' + (LT.hash(LT.causeText(c)) % 360) + ',55%,60%)';
};

/* An SVG element with attributes (values set as attributes, not markup). */
LT.svg = function (tag, attrs, parent) {
	var el = document.createElementNS(LT.SVG_NS, tag), k;

	for (k in attrs)
		el.setAttribute(k, attrs[k]);
	if (parent)
		parent.appendChild(el);
	return el;
};

LT.el = function (tag, attrs, text, parent) {
	var el = document.createElement(tag), k;

	for (k in attrs)
		el.setAttribute(k, attrs[k]);
	if (text !== undefined && text !== null)
		el.textContent = text;
	if (parent)
		parent.appendChild(el);
	return el;
};

LT.clear = function (el) {
	while (el.firstChild)
		el.removeChild(el.firstChild);
};

/* The one tooltip: lines of text by the pointer. */
LT.tip = function (ev, lines) {
	var tip = document.getElementById('lt-tip'), x, y;

	if (!tip) {
		tip = LT.el('div', { id: 'lt-tip', role: 'tooltip' }, null,
			    document.body);
	}
	if (!lines) {
		tip.hidden = true;
		return;
	}
	LT.clear(tip);
	lines.forEach(function (l, i) {
		LT.el(i ? 'div' : 'strong', {}, l, tip);
	});
	tip.hidden = false;
	x = ev.pageX + 14;
	y = ev.pageY + 14;
	if (x + tip.offsetWidth > window.pageXOffset + document.documentElement.clientWidth)
		x = ev.pageX - tip.offsetWidth - 8;
	tip.style.left = x + 'px';
	tip.style.top = y + 'px';
};

/* The width a chart may take: its container's. */
LT.width = function (el) {
	return Math.max(320, Math.floor(el.getBoundingClientRect().width));
};

/*
 * Steps of 1, 2, 5 x 10^k: at most @n ticks over @span (the smallest such
 * step no shorter than @span / @n), so labels sized for @n fit.
 */
LT.ticks = function (t0, t1, n) {
	var span = t1 - t0, raw = span / n, p, r, step, t, out = [];

	if (span <= 0)
		return out;
	p = Math.pow(10, Math.floor(Math.log10(raw)));
	r = raw / p * (1 - 1e-9);
	step = r <= 1 ? p : r <= 2 ? 2 * p : r <= 5 ? 5 * p : 10 * p;
	for (t = Math.ceil(t0 / step) * step; t <= t1; t += step)
		out.push(t);
	return out;
};

/* The causes' colours, above a chart (@before). */
LT.legend = function (before, causes) {
	var ul = LT.el('ul', { class: 'legend' }, null);

	before.parentNode.insertBefore(ul, before);

	causes.forEach(function (c) {
		var li = LT.el('li', {}, null, ul);

		LT.el('span', { class: 'swatch',
				style: 'background:' + LT.causeColour(c) }, null, li);
		li.appendChild(document.createTextNode(LT.causeText(c)));
	});
	return ul;
};
