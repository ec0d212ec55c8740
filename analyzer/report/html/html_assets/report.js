/*
 * gittrace-report --html: the page's script (embedded by embed.cmake).
 * Draws the per-process timelines and the allocation flame graph as SVG
 * from the JSON data block (#gt-data, written by report_html*.c) and makes
 * tables sortable. Hand-written, no libraries, no network.
 *
 * The page says whether the script ran: #gt-status gets data-state="ok"
 * when everything was drawn and "error" (with the message) on any uncaught
 * exception, so a test that only has the final DOM can tell.
 *
 * URL fragment: #weight=bytes|temporary|allocations&search=TEXT&zoom=NAME
 * sets the flame graph's initial state (zoom: the widest frame of that name).
 */
(function () {
	'use strict';

	var status = document.getElementById('gt-status');
	window.addEventListener('error', function (e) {
		status.setAttribute('data-state', 'error');
		status.textContent = 'script error: ' + e.message;
	});

	var NS = 'http://www.w3.org/2000/svg';
	var D = JSON.parse(document.getElementById('gt-data').textContent);
	var KIND_COLOR = {
		pack: '#c2185b',
		'pack-metadata': '#f06292',
		loose: '#f59f00',
		index: '#37b24d',
		other: '#5c7cfa',
		anonymous: '#adb5bd'
	};

	function svg(tag, attrs, parent) {
		var e = document.createElementNS(NS, tag);
		for (var k in attrs)
			e.setAttribute(k, attrs[k]);
		if (parent)
			parent.appendChild(e);
		return e;
	}

	function html(tag, attrs, parent, text) {
		var e = document.createElement(tag);
		for (var k in attrs)
			e.setAttribute(k, attrs[k]);
		if (text !== undefined)
			e.textContent = text;
		if (parent)
			parent.appendChild(e);
		return e;
	}

	function fmtBytes(n) {
		var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
		var u = 0;
		while (n >= 1024 && u < units.length - 1) {
			n /= 1024;
			u++;
		}
		return (u && n < 10 ? n.toFixed(1) : Math.round(n)) + ' ' + units[u];
	}

	function fmtCount(n) {
		var units = ['', 'k', 'M', 'G', 'T'];
		var u = 0;
		while (n >= 1000 && u < units.length - 1) {
			n /= 1000;
			u++;
		}
		return (n < 10 && n !== Math.round(n) ? n.toFixed(1) : Math.round(n)) + units[u];
	}

	function fmtSecs(s) {
		if (s >= 1)
			return s.toFixed(s < 10 ? 2 : 1) + ' s';
		if (s >= 1e-3)
			return (s * 1e3).toFixed(s < 1e-2 ? 2 : 1) + ' ms';
		return (s * 1e6).toFixed(1) + ' \u00b5s';
	}

	function pct(part, whole) {
		return whole > 0 ? (100 * part / whole).toFixed(part < whole / 100 ? 2 : 1) + '%' : '-';
	}

	/* The shared tooltip, kept inside the window. */
	var tip = document.getElementById('gt-tip');
	function showTip(ev, text) {
		tip.textContent = text;
		tip.hidden = false;
		var x = ev.clientX + 14, y = ev.clientY + 14;
		if (x + tip.offsetWidth > window.innerWidth - 4)
			x = ev.clientX - tip.offsetWidth - 10;
		if (y + tip.offsetHeight > window.innerHeight - 4)
			y = ev.clientY - tip.offsetHeight - 10;
		tip.style.left = Math.max(0, x) + 'px';
		tip.style.top = Math.max(0, y) + 'px';
	}
	function hideTip() {
		tip.hidden = true;
	}

	function fragment() {
		var out = {};
		location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
			var i = kv.indexOf('=');
			if (i > 0)
				out[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
		});
		return out;
	}

	/* ---- timelines ------------------------------------------------------ */

	/*
	 * Outline of a band between lower and upper (arrays of y, one per
	 * bucket) as a closed path of steps; runs of equal values are one step,
	 * so a quiet process costs few points.
	 */
	function bandPath(lower, upper, xAt) {
		var n = upper.length, d = [], i, j;
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && upper[j] === upper[i]; j++)
				;
			d.push((i ? 'L' : 'M') + xAt(i).toFixed(1) + ',' + upper[i].toFixed(1));
			d.push('L' + xAt(j).toFixed(1) + ',' + upper[i].toFixed(1));
		}
		for (i = n; i > 0; i = j) {
			for (j = i - 1; j > 0 && lower[j - 1] === lower[i - 1]; j--)
				;
			d.push('L' + xAt(i).toFixed(1) + ',' + lower[i - 1].toFixed(1));
			d.push('L' + xAt(j).toFixed(1) + ',' + lower[i - 1].toFixed(1));
		}
		return d.join('') + 'Z';
	}

	function sum(a) {
		var s = 0;
		for (var i = 0; i < a.length; i++)
			s += a[i];
		return s;
	}

	function niceStep(span, ticks) {
		var raw = span / ticks, p = Math.pow(10, Math.floor(Math.log10(raw)));
		var m = raw / p;
		return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
	}

	/*
	 * The charts of one process as data: each has layers, each layer one
	 * series. Levels (bytes) are drawn as they are; counts become rates
	 * (per second of bucket). A mirrored chart stacks its "up" layers above
	 * the middle line and its "down" layers below.
	 */
	function chartsOf(tl) {
		var n = tl.n, zero = new Array(n).fill(0);
		var rate = function (a) {
			return a.map(function (v) {
				return v / tl.width;
			});
		};
		var get = function (obj, key) {
			return obj && obj[key] ? obj[key] : zero;
		};
		var charts = [{
			title: 'live heap',
			fmt: fmtBytes,
			h: 62,
			layers: [{id: 'heap', label: 'live heap bytes', color: '#2f6fdf', v: get(tl, 'heap'), total: Math.max.apply(null, get(tl, 'heap'))}]
		}, {
			title: 'allocations/s',
			fmt: fmtCount,
			rate: true,
			h: 52,
			layers: [{id: 'allocations', label: 'allocations per second', color: '#e5832b', v: rate(get(tl, 'allocations')), total: sum(get(tl, 'allocations'))}]
		}];
		if (tl.mapped) {
			/* Pack windows are part of the mapped bytes: draw them as the
			 * lower band and the rest above, so both read at a glance. */
			var pack = get(tl, 'pack');
			charts.push({
				title: 'mapped',
				fmt: fmtBytes,
				h: 52,
				stacked: true,
				layers: [
					{id: 'mapped-pack', label: 'pack windows mapped', color: KIND_COLOR.pack, v: pack, total: Math.max.apply(null, pack)},
					{id: 'mapped-other', label: 'other maps', color: '#9aa3b2', v: tl.mapped.map(function (v, i) {
						return Math.max(0, v - pack[i]);
					}), total: Math.max.apply(null, tl.mapped)}
				]
			});
		}
		var up = [], down = [];
		D.kinds.forEach(function (k) {
			var m = get(tl.mmaps, k), u = get(tl.munmaps, k);
			if (m !== zero)
				up.push({id: 'mmap-' + k, kind: k, label: 'mmap ' + k, color: KIND_COLOR[k], v: rate(m), total: sum(m)});
			if (u !== zero)
				down.push({id: 'munmap-' + k, kind: k, label: 'munmap ' + k, color: KIND_COLOR[k], v: rate(u), total: sum(u)});
		});
		if (up.length || down.length)
			charts.push({title: 'map calls/s', subtitle: ['\u2191 mmap', '\u2193 munmap'], fmt: fmtCount, rate: true, h: 84, mirrored: true, up: up, down: down});
		return charts;
	}

	function drawTimeline(box, p, tl) {
		var W = 1100, L = 112, R = 14, plotW = W - L - R, gap = 12;
		var span = Math.max(tl.n * tl.width, tl.end) || tl.width;
		var xAt = function (i) {
			return L + Math.min(i * tl.width, span) / span * plotW;
		};
		var charts = chartsOf(tl);
		var H = 6;
		var phasesTop = H;
		if (tl.phases)
			H += PHASE_H + gap;
		charts.forEach(function (c) {
			c.top = H;
			H += c.h + gap;
		});
		var axisY = H - gap + 4;
		H = axisY + 18;
		var root = svg('svg', {class: 'tl-svg', viewBox: '0 0 ' + W + ' ' + H, 'data-pid': p.pid}, box);
		root.style.maxWidth = W + 'px';
		var legend = html('div', {class: 'legend'}, box);
		if (tl.phases)
			drawPhases(root, tl, phasesTop, L, plotW, span);

		charts.forEach(function (c) {
			var g = svg('g', {class: 'gt-chart', 'data-chart': c.title}, root);
			var title = svg('text', {x: L - 8, y: c.top + 11, 'text-anchor': 'end', class: 'title'}, g);
			title.textContent = c.title;
			(c.subtitle || []).forEach(function (line, k) {
				yLabel(g, L - 8, c.top + 25 + 14 * k, line);
			});
			svg('line', {x1: L, x2: L + plotW, y1: c.top + c.h, y2: c.top + c.h, class: 'axis'}, g);
			if (c.mirrored)
				drawMirrored(g, c, xAt, L, plotW);
			else
				drawStacked(g, c, xAt, L);
			legendOf(c).forEach(function (item) {
				var e = html('span', {}, legend);
				html('i', {style: 'background:' + item.color}, e);
				e.appendChild(document.createTextNode(item.label));
			});
		});

		var step = niceStep(span, 8);
		for (var t = 0; t <= span * 1.0001; t += step) {
			var x = L + t / span * plotW;
			svg('line', {x1: x, x2: x, y1: axisY - 4, y2: axisY, class: 'axis'}, root);
			var label = svg('text', {x: x, y: axisY + 12, 'text-anchor': 'middle'}, root);
			label.textContent = fmtSecs(t).replace(/\.00 s$/, ' s').replace(/^0\.0 \u00b5s$/, '0');
		}

		/* Hover: a cursor across all charts and the values at that time. */
		var cursor = svg('line', {y1: 0, y2: axisY, class: 'cursor', visibility: 'hidden'}, root);
		var hit = svg('rect', {x: L, y: 0, width: plotW, height: axisY, fill: 'transparent'}, root);
		hit.addEventListener('mousemove', function (ev) {
			var box = root.getBoundingClientRect();
			var x = (ev.clientX - box.left) * W / box.width;
			var sec = (x - L) / plotW * span;
			var i = Math.min(tl.n - 1, Math.max(0, Math.floor(sec / tl.width)));
			cursor.setAttribute('x1', x);
			cursor.setAttribute('x2', x);
			cursor.setAttribute('visibility', 'visible');
			var lines = [fmtSecs(i * tl.width) + ' \u2013 ' + fmtSecs((i + 1) * tl.width)];
			(tl.phases || []).forEach(function (b) {
				if (b[0] <= sec && sec < b[1])
					lines.push('phase: ' + b[2]);
			});
			charts.forEach(function (c) {
				(c.mirrored ? c.up.concat(c.down) : c.layers).forEach(function (layer) {
					var v = layer.v[i] || 0;
					if (v || !c.mirrored)
						lines.push(layer.label + ': ' + c.fmt(v) + (c.rate ? '/s' : ''));
				});
			});
			showTip(ev, lines.join('\n'));
		});
		hit.addEventListener('mouseleave', function () {
			cursor.setAttribute('visibility', 'hidden');
			hideTip();
		});
	}

	/* git's trace2 regions (the innermost one at each time) as bands above the charts. */
	var PHASE_H = 18, PHASE_COLORS = ['#c7d7ee', '#f3d3b0', '#cde6c4', '#e8c8de', '#f0e3a8', '#c9e4e6'];

	function drawPhases(root, tl, top, L, plotW, span) {
		var g = svg('g', {class: 'gt-phases'}, root);
		var title = svg('text', {x: L - 8, y: top + 13, 'text-anchor': 'end', class: 'title'}, g);
		title.textContent = tl.phases_cut ? 'phases (cut)' : 'phases';
		var colorOf = {}, ncolors = 0;
		tl.phases.forEach(function (b) {
			var x0 = L + Math.min(b[0], span) / span * plotW, x1 = L + Math.min(b[1], span) / span * plotW;
			if (!(b[2] in colorOf))
				colorOf[b[2]] = PHASE_COLORS[ncolors++ % PHASE_COLORS.length];
			/* The hover line names the phase under the cursor. */
			svg('rect', {x: x0, y: top, width: Math.max(x1 - x0, 0.5), height: PHASE_H, fill: colorOf[b[2]], class: 'gt-phase'}, g);
			if (x1 - x0 > 7 * b[2].length) {
				var t = svg('text', {x: x0 + 3, y: top + 13}, g);
				t.textContent = b[2];
			}
		});
	}

	/* One legend entry per layer; a mirrored chart's kinds once each,
	 * with their call counts. */
	function legendOf(c) {
		if (!c.mirrored)
			return c.layers;
		var kinds = [], calls = {};
		c.up.concat(c.down).forEach(function (l) {
			if (!calls[l.kind]) {
				calls[l.kind] = [];
				kinds.push(l);
			}
			calls[l.kind].push(fmtCount(l.total) + ' ' + l.label.split(' ')[0]);
		});
		return kinds.map(function (l) {
			return {color: l.color, label: 'map calls: ' + l.kind + ' (' + calls[l.kind].join(', ') + ')'};
		});
	}

	function yLabel(g, x, y, text, anchor) {
		var t = svg('text', {x: x, y: y, 'text-anchor': anchor || 'end'}, g);
		t.textContent = text;
	}

	/* Layers stacked upwards from the chart's bottom line. */
	function drawStacked(g, c, xAt, L) {
		var n = c.layers[0].v.length, base = new Array(n).fill(0), max = 0, i;
		var tops = c.layers.map(function (layer) {
			var top = layer.v.map(function (v, i) {
				return base[i] + v;
			});
			base = top;
			return top;
		});
		for (i = 0; i < n; i++)
			max = Math.max(max, base[i]);
		var y = function (v) {
			return c.top + c.h - (max > 0 ? v / max * (c.h - 4) : 0);
		};
		var lower = new Array(n).fill(0);
		c.layers.forEach(function (layer, k) {
			svg('path', {
				d: n ? bandPath(lower.map(y), tops[k].map(y), xAt) : '',
				fill: layer.color,
				'fill-opacity': 0.85,
				class: 'gt-series',
				'data-series': layer.id,
				'data-total': layer.total
			}, g);
			lower = tops[k];
		});
		yLabel(g, L - 8, c.top + 25, max ? 'max ' + c.fmt(max) : 'none');
	}

	/* "up" layers stacked above the middle, "down" layers below it. */
	function drawMirrored(g, c, xAt, L, plotW) {
		var n = (c.up[0] || c.down[0]).v.length, mid = c.top + c.h / 2, max = 0, i;
		function stack(layers) {
			var base = new Array(n).fill(0);
			return layers.map(function (layer) {
				var lower = base;
				base = layer.v.map(function (v, i) {
					return lower[i] + v;
				});
				for (var i = 0; i < n; i++)
					max = Math.max(max, base[i]);
				return {layer: layer, lower: lower, upper: base};
			});
		}
		var ups = stack(c.up), downs = stack(c.down);
		var half = c.h / 2 - 2;
		var yUp = function (v) {
			return mid - (max > 0 ? v / max * half : 0);
		};
		var yDown = function (v) {
			return mid + (max > 0 ? v / max * half : 0);
		};
		svg('line', {x1: L, x2: L + plotW, y1: mid, y2: mid, class: 'grid'}, g);
		ups.forEach(function (s) {
			svg('path', {d: bandPath(s.lower.map(yUp), s.upper.map(yUp), xAt), fill: s.layer.color, class: 'gt-series', 'data-series': s.layer.id, 'data-total': s.layer.total}, g);
		});
		downs.forEach(function (s) {
			svg('path', {d: bandPath(s.lower.map(yDown), s.upper.map(yDown), xAt), fill: s.layer.color, 'fill-opacity': 0.7, class: 'gt-series', 'data-series': s.layer.id, 'data-total': s.layer.total}, g);
		});
		yLabel(g, L - 8, c.top + 53, 'max ' + c.fmt(max));
	}

	function timelines() {
		var list = document.getElementById('gt-timeline-list');
		var shown = 0;
		D.procs.forEach(function (p, i) {
			var tl = D.timelines[i];
			if (!tl.n)
				return;
			var d = html('details', {class: 'tl', 'data-pid': p.pid}, list);
			var cmd = p.argv.length ? p.argv.join(' ') : p.exe;
			var s = html('summary', {title: cmd}, d, p.pid + ' ' + (cmd.length > 90 ? cmd.slice(0, 89) + '\u2026' : cmd));
			html('span', {class: 'sub'}, s, fmtCount(p.events) + ' calls \u00b7 ' + fmtSecs(p.wall) +
				' wall \u00b7 ' + fmtSecs(p.cpu) + ' CPU \u00b7 starts at +' + fmtSecs(tl.start) +
				' \u00b7 ' + fmtSecs(tl.width) + ' per bucket');
			var drawn = false;
			var draw = function () {
				if (!drawn && d.open) {
					drawn = true;
					drawTimeline(d, p, tl);
				}
			};
			d.addEventListener('toggle', draw);
			/* The heaviest processes open; others draw when opened. */
			if (shown++ < 4) {
				d.open = true;
				draw();
			}
		});
		if (!shown)
			html('p', {class: 'note'}, list, 'No traced calls.');
	}

	/* ---- flame graph ---------------------------------------------------- */

	var WEIGHTS = ['allocations', 'bytes', 'temporary'];

	function flameTree() {
		var F = D.flame, a = F.nodes, stack = [], root = null;
		for (var k = 0; k + 4 < a.length; k += 5) {
			var depth = a[k];
			var node = {name: F.names[a[k + 1]], v: [a[k + 2], a[k + 3], a[k + 4]], children: [], depth: depth, parent: null};
			if (depth === 0) {
				root = node;
			} else {
				node.parent = stack[depth - 1];
				node.parent.children.push(node);
			}
			stack[depth] = node;
			stack.length = depth + 1;
		}
		return root;
	}

	function hue(name) {
		var h = 0;
		for (var i = 0; i < name.length; i++)
			h = (h * 31 + name.charCodeAt(i)) >>> 0;
		return h;
	}

	function frameColor(node) {
		if (node.depth === 0)
			return '#c5cad3';
		if (node.depth === 1)
			return '#9ec5fe';
		var h = hue(node.name);
		return 'hsl(' + (8 + h % 42) + ',' + (72 + (h >> 8) % 18) + '%,' + (58 + (h >> 16) % 12) + '%)';
	}

	function flame() {
		var box = document.getElementById('gt-flame');
		var root = flameTree();
		if (!root || !root.v[0]) {
			html('p', {class: 'note'}, box, 'No allocating calls with stacks in this trace.');
			return;
		}
		if (!root.children.some(function (c) {
			return c.children.length;
		}))
			html('p', {class: 'note'}, box.parentNode.insertBefore(document.createElement('div'), box),
				'No call stacks in this trace (counting mode, GITTRACE_STACK_DEPTH=0): ' +
				'only each process\'s total.');
		var state = {w: 0, zoom: root, search: ''};
		var ROW = 17, CHAR = 6.7;
		var radios = document.querySelectorAll('input[name="gt-weight"]');
		var search = document.getElementById('gt-search');
		var match = document.getElementById('gt-match');

		function sortChildren(node) {
			node.children.sort(function (x, y) {
				return y.v[state.w] - x.v[state.w];
			});
			node.children.forEach(sortChildren);
		}

		function matches(node) {
			return state.search && node.name.toLowerCase().indexOf(state.search) >= 0;
		}

		function render() {
			box.textContent = '';
			var W = Math.max(600, box.clientWidth || 1100);
			var z = state.zoom, total = z.v[state.w];
			var frames = [], maxDepth = z.depth;
			/* Ancestors of the zoomed frame, full width and dimmed. */
			for (var a = z.parent; a; a = a.parent)
				frames.push({node: a, x: 0, w: W, dim: true});
			(function lay(node, x, w) {
				frames.push({node: node, x: x, w: w});
				maxDepth = Math.max(maxDepth, node.depth);
				var cx = x;
				node.children.forEach(function (c) {
					var cw = total > 0 ? c.v[state.w] / total * W : 0;
					if (cw >= 0.5)
						lay(c, cx, cw);
					cx += cw;
				});
			})(z, 0, total > 0 ? W : 0);
			var s = svg('svg', {width: W, height: (maxDepth + 1) * ROW, viewBox: '0 0 ' + W + ' ' + (maxDepth + 1) * ROW}, box);
			var matched = 0;
			frames.forEach(function (f) {
				var n = f.node, hit = matches(n);
				var g = svg('g', {
					class: 'gt-frame' + (f.dim ? ' dim' : '') + (hit ? ' match' : ''),
					'data-name': n.name,
					'data-depth': n.depth,
					'data-value': n.v[state.w],
					'data-w': f.w.toFixed(1)
				}, s);
				svg('rect', {x: f.x.toFixed(2), y: n.depth * ROW, width: Math.max(0, f.w - 0.5).toFixed(2), height: ROW - 1, fill: frameColor(n)}, g);
				if (f.w > 28) {
					var max = Math.floor((f.w - 6) / CHAR), label = n.name;
					if (label.length > max)
						label = label.slice(0, Math.max(0, max - 1)) + '\u2026';
					var t = svg('text', {x: (f.x + 3).toFixed(1), y: n.depth * ROW + 12}, g);
					t.textContent = label;
				}
				if (hit && !f.dim) {
					var under = false;
					for (var p = n.parent; p && p !== z.parent; p = p.parent)
						under = under || matches(p);
					if (!under)
						matched += n.v[state.w];
				}
				g.addEventListener('click', function () {
					state.zoom = n === state.zoom && n.parent ? n.parent : n;
					render();
				});
				g.addEventListener('mousemove', function (ev) {
					var self = n.v[state.w] - n.children.reduce(function (acc, c) {
						return acc + c.v[state.w];
					}, 0);
					var fmt = state.w === 1 ? fmtBytes : fmtCount;
					showTip(ev, n.name + '\n' + fmt(n.v[state.w]) + ' ' + WEIGHTS[state.w] +
						' (' + pct(n.v[state.w], root.v[state.w]) + ' of all' +
						(z !== root ? ', ' + pct(n.v[state.w], total) + ' of zoom' : '') + ')' +
						'\nself: ' + fmt(self) + '\nallocations ' + fmtCount(n.v[0]) + ' \u00b7 bytes ' +
						fmtBytes(n.v[1]) + ' \u00b7 temporary ' + fmtCount(n.v[2]));
				});
				g.addEventListener('mouseleave', hideTip);
			});
			match.textContent = state.search ? 'matched: ' + pct(matched, total) + ' of ' +
				(z === root ? 'all' : 'zoom') : '';
		}

		function setWeight(w) {
			state.w = Math.max(0, WEIGHTS.indexOf(w));
			radios.forEach(function (r) {
				r.checked = r.value === WEIGHTS[state.w];
			});
			sortChildren(root);
		}

		var hash = fragment();
		setWeight(hash.weight || 'allocations');
		if (hash.search) {
			search.value = hash.search;
			state.search = hash.search.toLowerCase();
		}
		if (hash.zoom) {
			var best = null;
			(function find(n) {
				if (n.name === hash.zoom && (!best || n.v[state.w] > best.v[state.w]))
					best = n;
				n.children.forEach(find);
			})(root);
			state.zoom = best || root;
		}
		radios.forEach(function (r) {
			r.addEventListener('change', function () {
				setWeight(r.value);
				render();
			});
		});
		search.addEventListener('input', function () {
			state.search = search.value.trim().toLowerCase();
			render();
		});
		document.getElementById('gt-reset').addEventListener('click', function () {
			state.zoom = root;
			render();
		});
		var width = box.clientWidth;
		window.addEventListener('resize', function () {
			if (box.clientWidth !== width) {
				width = box.clientWidth;
				render();
			}
		});
		render();
	}

	/* ---- sortable tables ------------------------------------------------ */

	function sortable(table) {
		var heads = table.tHead.rows[0].cells;
		Array.prototype.forEach.call(heads, function (th, col) {
			th.addEventListener('click', function () {
				var num = th.getAttribute('data-type') === 'num';
				var dir = th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending';
				Array.prototype.forEach.call(heads, function (h) {
					h.removeAttribute('aria-sort');
				});
				th.setAttribute('aria-sort', dir);
				var body = table.tBodies[0];
				var rows = Array.prototype.slice.call(body.rows);
				var key = function (r) {
					var v = r.cells[col].getAttribute('data-v');
					return num ? parseFloat(v) : v;
				};
				rows.sort(function (a, b) {
					var x = key(a), y = key(b);
					var c = num ? x - y : x.localeCompare(y);
					return dir === 'ascending' ? c : -c;
				});
				rows.forEach(function (r) {
					body.appendChild(r);
				});
			});
		});
	}

	timelines();
	flame();
	Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), sortable);
	status.setAttribute('data-state', 'ok');
	status.textContent = 'drawn by the page\'s script';
})();
