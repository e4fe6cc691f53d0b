// memwall-charts.js: the bridge between the Go chart component (app/chart.go)
// and Apache ECharts. Options arrive as JSON; formatter names such as
// "@seconds" become the functions below, so axis labels and tooltips show
// human units. Charts draw with the SVG renderer: for these few hundred
// points per series it lays out and paints faster than the canvas one,
// which matters most on the first load. Exports re-render the same option
// off screen: PNG with the canvas renderer (ECharts' saveAsImage can only
// save SVG from an SVG chart), SVG with server-side rendering.
(function () {
  "use strict";

  function trim(v) {
    return Number(v.toPrecision(4)).toString();
  }

  function seconds(v) {
    if (v === null || v === undefined || !isFinite(v)) return "—";
    var a = Math.abs(v);
    if (a === 0) return "0 s";
    if (a >= 1) return trim(v) + " s";
    if (a >= 1e-3) return trim(v * 1e3) + " ms";
    if (a >= 1e-6) return trim(v * 1e6) + " µs";
    if (a >= 1e-9) return trim(v * 1e9) + " ns";
    return trim(v * 1e12) + " ps";
  }

  // Element counts as the paper writes them: 8Mi for 8·2^20.
  function count(v) {
    if (!isFinite(v)) return "—";
    var units = [[40, "Ti"], [30, "Gi"], [20, "Mi"], [10, "Ki"]];
    for (var i = 0; i < units.length; i++) {
      var p = Math.pow(2, units[i][0]);
      if (v >= p && v % p === 0) return v / p + units[i][1];
    }
    if (v >= 1e6) return Number(v.toPrecision(3)).toExponential().replace("e+", "e");
    return String(Math.round(v));
  }

  function bandwidth(v) {
    if (!isFinite(v)) return "—";
    var a = Math.abs(v);
    if (a >= 1e12) return trim(v / 1e12) + " TB/s";
    if (a >= 1e9) return trim(v / 1e9) + " GB/s";
    if (a >= 1e6) return trim(v / 1e6) + " MB/s";
    if (a >= 1e3) return trim(v / 1e3) + " KB/s";
    return trim(v) + " B/s";
  }

  var formatters = {
    "@seconds": seconds,
    "@count": count,
    "@bandwidth": bandwidth,
    // A label formatter for series labels: params.value may be [x, y].
    "@label-seconds": function (p) {
      var v = Array.isArray(p.value) ? p.value[0] : p.value;
      return seconds(v);
    },
  };

  function revive(o) {
    if (Array.isArray(o)) return o.map(revive);
    if (o && typeof o === "object") {
      var out = {};
      Object.keys(o).forEach(function (k) {
        var v = o[k];
        if (typeof v === "string" && formatters[v] && /formatter$/i.test(k)) {
          out[k] = formatters[v];
        } else {
          out[k] = revive(v);
        }
      });
      return out;
    }
    return o;
  }

  function download(name, blob) {
    var url = URL.createObjectURL(blob);
    var a = document.createElement("a");
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  function exportSVG(el) {
    var chart = echarts.getInstanceByDom(el);
    if (!chart) return;
    var svg = echarts.init(null, null, {
      renderer: "svg", ssr: true, width: el.clientWidth || 800, height: el.clientHeight || 400,
    });
    svg.setOption(exportOption(chart));
    var text = svg.renderToSVGString();
    svg.dispose();
    download((el.id || "chart") + ".svg", new Blob([text], { type: "image/svg+xml" }));
  }

  // The same option drawn again with animation and the toolbox off.
  function exportOption(chart) {
    var opt = chart.getOption();
    opt.animation = false;
    opt.toolbox = [{ show: false }];
    return opt;
  }

  function exportPNG(el) {
    var chart = echarts.getInstanceByDom(el);
    if (!chart) return;
    var w = el.clientWidth || 800, h = el.clientHeight || 400;
    var box = document.createElement("div");
    box.style.cssText = "position:fixed;left:-20000px;top:0;width:" + w + "px;height:" + h + "px";
    document.body.appendChild(box);
    var png = echarts.init(box, null, { renderer: "canvas", width: w, height: h });
    png.setOption(exportOption(chart));
    var url = png.getDataURL({ type: "png", pixelRatio: 2, backgroundColor: "#fff" });
    png.dispose();
    box.remove();
    // A data: URL decoded here, not fetched: the page's policy allows
    // connections to its own origin only.
    var bin = atob(url.slice(url.indexOf(",") + 1));
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    download((el.id || "chart") + ".png", new Blob([bytes], { type: "image/png" }));
  }

  function withToolbox(opt, el) {
    opt.toolbox = {
      right: 8,
      feature: {
        myExportPNG: {
          show: true,
          title: "PNG",
          icon: "path://M4,4 L28,4 L28,28 L4,28 Z M4,22 L12,14 L18,20 L22,16 L28,22",
          onclick: function () { exportPNG(el); },
        },
        myExportSVG: {
          show: true,
          title: "SVG",
          icon: "path://M4,4 L28,4 L28,28 L4,28 Z M8,20 L16,12 L24,20",
          onclick: function () { exportSVG(el); },
        },
      },
    };
    // The page's description replaces ECharts' generated one.
    opt.aria = { enabled: true, label: { enabled: true, description: el.getAttribute("data-description") || "" } };
    // Legends stop short of the export icons and scroll rather than wrap
    // over them or the plot.
    var legends = opt.legend ? (Array.isArray(opt.legend) ? opt.legend : [opt.legend]) : [];
    legends.forEach(function (l) {
      // Only a legend along the top meets the icons (top right).
      if (l.orient === "vertical" || l.bottom !== undefined) return;
      // ECharts keeps two of left, right and width: the legends here are
      // placed by left, so their width leaves the icons' corner free.
      delete l.right;
      l.width = "75%";
      l.type = "scroll";
    });
    return opt;
  }

  // A chart's first draw waits until the page has painted: laying out a
  // chart takes longer than the rest of a page, so the numbers show first
  // and the chart follows. Options that arrive meanwhile replace the
  // waiting one.
  var waiting = new Map();

  function render(el, json) {
    if (typeof echarts === "undefined" || !el) return;
    if (echarts.getInstanceByDom(el)) {
      draw(el, json);
      return;
    }
    var first = !waiting.has(el);
    waiting.set(el, json);
    if (!first) return;
    var done = false;
    function drawWaiting() {
      if (done) return;
      done = true;
      if (!waiting.has(el)) return; // disposed meanwhile
      var latest = waiting.get(el);
      waiting.delete(el);
      if (el.isConnected) draw(el, latest);
    }
    requestAnimationFrame(function () { setTimeout(drawWaiting, 0); });
    // Browsers stop animation frames for a page they think is not shown
    // (a background tab, a busy headless browser): a timer draws the
    // chart then, so it never waits for a frame that does not come.
    setTimeout(drawWaiting, 250);
  }

  function draw(el, json) {
    var chart = echarts.getInstanceByDom(el) || echarts.init(el, null, { renderer: "svg" });
    var opt;
    try {
      opt = revive(JSON.parse(json));
    } catch (e) {
      console.warn("memwall: bad chart option", e);
      return;
    }
    chart.setOption(withToolbox(opt, el), { notMerge: true });
  }

  function resize(el) {
    var chart = el && echarts.getInstanceByDom(el);
    if (chart) chart.resize();
  }

  function dispose(el) {
    waiting.delete(el);
    var chart = el && echarts.getInstanceByDom(el);
    if (chart) chart.dispose();
  }

  // Tables wider than their box get the class "scrolls" (a visible cue,
  // see memwall.css); checked as the page changes and on resize.
  function markWideTables() {
    document.querySelectorAll(".table-wrap").forEach(function (w) {
      w.classList.toggle("scrolls", w.scrollWidth > w.clientWidth + 1);
    });
  }
  var markPending = false;
  function scheduleMark() {
    if (markPending) return;
    markPending = true;
    requestAnimationFrame(function () { markPending = false; markWideTables(); });
  }
  if (typeof MutationObserver !== "undefined") {
    new MutationObserver(scheduleMark).observe(document.documentElement, { childList: true, subtree: true });
  }
  window.addEventListener("resize", scheduleMark);

  window.memwallChart = { render: render, resize: resize, dispose: dispose, exportSVG: exportSVG, exportPNG: exportPNG, format: formatters };
})();
