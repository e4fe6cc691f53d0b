// memwall-charts.js: the bridge between the Go chart component (app/chart.go)
// and Apache ECharts. Options arrive as JSON; formatter names such as
// "@seconds" become the functions below, so axis labels and tooltips show
// human units. Exports: PNG through ECharts' own saveAsImage, SVG by
// re-rendering the same option with the SVG renderer.
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
    var opt = chart.getOption();
    var svg = echarts.init(null, null, {
      renderer: "svg", ssr: true, width: el.clientWidth || 800, height: el.clientHeight || 400,
    });
    opt.animation = false;
    opt.toolbox = [{ show: false }];
    svg.setOption(opt);
    var text = svg.renderToSVGString();
    svg.dispose();
    download((el.id || "chart") + ".svg", new Blob([text], { type: "image/svg+xml" }));
  }

  function withToolbox(opt, el) {
    opt.toolbox = {
      right: 8,
      feature: {
        saveAsImage: { title: "PNG", name: el.id || "chart", pixelRatio: 2 },
        myExportSVG: {
          show: true,
          title: "SVG",
          icon: "path://M4,4 L28,4 L28,28 L4,28 Z M8,20 L16,12 L24,20",
          onclick: function () { exportSVG(el); },
        },
      },
    };
    opt.aria = opt.aria || { enabled: true };
    return opt;
  }

  function render(el, json) {
    if (typeof echarts === "undefined" || !el) return;
    var chart = echarts.getInstanceByDom(el) || echarts.init(el, null, { renderer: "canvas" });
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
    var chart = el && echarts.getInstanceByDom(el);
    if (chart) chart.dispose();
  }

  window.memwallChart = { render: render, resize: resize, dispose: dispose, exportSVG: exportSVG, format: formatters };
})();
