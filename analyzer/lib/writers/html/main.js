// SPDX-License-Identifier: LGPL-2.1
/*
 * main.js - the page once loaded: the tables' sorting and filter, then
 * the pictures.  A picture that fails says so in its place; the others
 * and the tables still work.
 */
'use strict';

document.addEventListener('DOMContentLoaded', function () {
	LT.load();
	LT.initTables();
	[['flame', LT.initFlame], ['wfor', LT.initWfor],
	 ['timeline', LT.initTimeline],
	 ['windows', LT.initWindows]].forEach(function (p) {
		try {
			p[1]();
		} catch (e) {
			var sec = document.getElementById(p[0]);

			if (sec)
				LT.el('p', { class: 'error' }, 'This picture failed: ' + e,
				      sec);
			/* a bug: said where the tests look */
			console.error(e);
		}
	});
	document.body.setAttribute('data-ready', '1');
});
