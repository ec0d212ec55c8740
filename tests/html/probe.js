/*
 * probe.js: appended to a copy of a report page by churn.sh. Drives the
 * page's own handlers with synthetic events (the headless browser has no
 * user) and writes what it saw into #gt-probe for the test to read:
 *   data-desc / data-asc: the sites' bytes column is ordered after one and
 *     two clicks on its header;
 *   data-zoom: the drawn width of FRAME after a click on it, and data-full:
 *     the flame graph's width;
 *   data-temporary, data-bytes: the widest frame under main after choosing
 *     the "temporary", then the "bytes" weight;
 *   data-tip: the tooltip's first line after hovering the first timeline.
 */
(function () {
	'use strict';
	var out = document.createElement('div');
	out.id = 'gt-probe';
	document.body.appendChild(out);
	var col = function (i) {
		return Array.prototype.map.call(document.querySelectorAll('#gt-sites tbody tr'), function (r) {
			return parseFloat(r.cells[i].getAttribute('data-v'));
		});
	};
	var ordered = function (v, sign) {
		return v.every(function (x, i) {
			return i === 0 || sign * (x - v[i - 1]) >= 0;
		});
	};
	var heads = Array.prototype.slice.call(document.querySelectorAll('#gt-sites th'));
	var bytes = heads.filter(function (th) {
		return th.textContent.indexOf('bytes') === 0;
	})[0];
	var at = heads.indexOf(bytes);
	bytes.click();
	out.setAttribute('data-desc', ordered(col(at), -1) && bytes.getAttribute('aria-sort'));
	bytes.click();
	out.setAttribute('data-asc', ordered(col(at), 1) && bytes.getAttribute('aria-sort'));

	var frame = document.querySelector('.gt-frame[data-name="FRAME"]');
	frame.dispatchEvent(new MouseEvent('click', {bubbles: true}));
	out.setAttribute('data-zoom', document.querySelector('.gt-frame[data-name="FRAME"]').getAttribute('data-w'));
	out.setAttribute('data-full', document.querySelector('#gt-flame svg').getAttribute('width'));
	document.getElementById('gt-reset').click();

	var widestUnderMain = function () {
		var main = document.querySelector('.gt-frame[data-name="main"]');
		var depth = +main.getAttribute('data-depth') + 1, widest = '', w = -1;
		Array.prototype.forEach.call(document.querySelectorAll('.gt-frame[data-depth="' + depth + '"]'), function (g) {
			if (+g.getAttribute('data-w') > w) {
				w = +g.getAttribute('data-w');
				widest = g.getAttribute('data-name');
			}
		});
		return widest || 'none';
	};
	document.querySelector('input[name="gt-weight"][value="temporary"]').click();
	out.setAttribute('data-temporary', widestUnderMain());
	document.querySelector('input[name="gt-weight"][value="bytes"]').click();
	out.setAttribute('data-bytes', widestUnderMain());

	var hit = document.querySelector('svg.tl-svg rect[fill="transparent"]');
	var box = hit.getBoundingClientRect();
	hit.dispatchEvent(new MouseEvent('mousemove', {bubbles: true, clientX: box.left + box.width / 2, clientY: box.top + 10}));
	var tip = document.getElementById('gt-tip');
	out.setAttribute('data-tip', tip.hidden ? 'hidden' : tip.textContent.split('\n')[1]);
})();
