package io.kvd.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler.LegendPosition;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code kvbench plot DIR}: reads the suite's {@code <experiment>.jsonl} files and writes a PNG chart per
 * view (kvd and redis-server side by side) and {@code summary.csv}: per experiment, server, point and
 * metric, the mean, minimum and maximum over the runs, or the reason the runs were skipped.
 */
final class Plot {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 540;
    private static final List<String> THROUGHPUT_METRICS = List.of("ops_per_sec", "p50_us", "p99_us",
            "ops_per_server_cpu_s", "server_busy", "client_busy");

    /** How an experiment's runs are grouped into points, and what is summarized of each. */
    private record View(String experiment, Function<Map<String, Object>, String> point, List<String> metrics) {
    }

    private static final List<View> VIEWS = List.of(
            new View("depth", r -> "P=" + whole(r.get("pipeline")), THROUGHPUT_METRICS),
            new View("connections", r -> "c=" + whole(r.get("connections")), THROUGHPUT_METRICS),
            new View("workload", r -> String.valueOf(r.get("workload")), THROUGHPUT_METRICS),
            new View("aof", r -> r.get("appendfsync") + " P=" + whole(r.get("pipeline")), THROUGHPUT_METRICS),
            new View("aof-latency", r -> String.valueOf(r.get("appendfsync")), THROUGHPUT_METRICS),
            new View("expiry", r -> whole(r.get("expiring_keys")) + " keys",
                    List.of("cleared_after_ms", "deadline_margin_ms", "load_s")),
            new View("replay", r -> whole(r.get("commands")) + " commands",
                    List.of("ready_s", "ready_cpu_s", "aof_bytes", "keys_after_replay")),
            new View("transport", r -> r.get("server_transport") + " P=" + whole(r.get("pipeline")), THROUGHPUT_METRICS),
            new View("memory", r -> whole(r.get("keys")) + " keys",
                    List.of("rss_bytes_per_key", "used_memory_bytes_per_key", "rss_after", "used_memory_after")));

    private final Path dir;
    private final Map<String, List<Map<String, Object>>> runs = new LinkedHashMap<>();

    private Plot(Path dir) {
        this.dir = dir;
    }

    /** Writes the charts and summary.csv into {@code dir}; returns the files written. */
    static List<Path> write(Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Plot plot = new Plot(dir);
        for (View view : VIEWS) {
            Path file = dir.resolve(view.experiment() + ".jsonl");
            if (Files.exists(file)) {
                plot.runs.put(view.experiment(), Files.readAllLines(file).stream().filter(l -> !l.isBlank())
                        .map(JsonLine::parse).toList());
            }
        }
        List<Path> written = new ArrayList<>();
        written.add(plot.summary());
        written.addAll(plot.charts());
        return written;
    }

    private Path summary() throws IOException {
        StringBuilder csv = new StringBuilder("experiment,server,point,metric,runs,mean,min,max,note\n");
        for (View view : VIEWS) {
            for (Map.Entry<String, List<Map<String, Object>>> group : groups(view).entrySet()) {
                String[] key = group.getKey().split("\t");
                List<Map<String, Object>> measured = group.getValue().stream().filter(Plot::measured).toList();
                String prefix = view.experiment() + "," + key[0] + "," + key[1] + ",";
                if (measured.isEmpty()) {
                    Map<String, Object> first = group.getValue().get(0);
                    Object reason = first.containsKey("skipped") ? first.get("skipped") : first.get("failed");
                    csv.append(prefix).append(first.containsKey("skipped") ? "skipped" : "failed").append(',')
                            .append(group.getValue().size()).append(",,,,").append(csvText(String.valueOf(reason)))
                            .append('\n');
                    continue;
                }
                for (String metric : view.metrics()) {
                    List<Double> values = measured.stream().map(r -> r.get(metric)).filter(v -> v instanceof Double)
                            .map(v -> (Double) v).toList();
                    if (!values.isEmpty()) {
                        csv.append(prefix).append(metric).append(',').append(values.size()).append(',')
                                .append(number(mean(values))).append(',')
                                .append(number(values.stream().mapToDouble(v -> v).min().orElseThrow())).append(',')
                                .append(number(values.stream().mapToDouble(v -> v).max().orElseThrow())).append(",\n");
                    }
                }
            }
        }
        Path file = dir.resolve("summary.csv");
        Files.writeString(file, csv);
        return file;
    }

    private List<Path> charts() throws IOException {
        List<Path> files = new ArrayList<>();
        sweep(files, "depth", "pipeline", "Pipeline depth (50 connections, SET, 16 B)", "requests in flight per connection");
        sweep(files, "connections", "connections", "Connections (pipeline 1, SET, 16 B)", "connections");
        categories(files, "workload", "SET, GET, 50/50 mix (50 connections, pipeline 16)", "ops_per_sec", "ops/s");
        categories(files, "aof", "AOF fsync policy (50 connections, SET)", "ops_per_sec", "ops/s");
        categories(files, "aof-latency", "AOF fsync policy: 1 connection, pipeline 1, p99 latency", "p99_us", "µs");
        categories(files, "transport", "Transports (50 connections, SET)", "ops_per_sec", "ops/s");
        categories(files, "memory", "Resident memory per key (16 B values)", "rss_bytes_per_key", "bytes per key");
        categories(files, "memory", "Memory per key as INFO used_memory reports it", "used_memory_bytes_per_key",
                "bytes per key", "memory-used");
        expiry(files);
        replay(files);
        return files;
    }

    /** Throughput, and p50/p99 latency, against a swept parameter: a line per server. */
    private void sweep(List<Path> files, String experiment, String parameter, String title, String xTitle)
            throws IOException {
        Map<String, Map<Double, List<Map<String, Object>>>> byServer = byServerAndX(experiment, parameter);
        if (byServer.isEmpty()) {
            return;
        }
        XYChart throughput = xyChart(title, xTitle, "ops/s");
        XYChart latency = xyChart(title + ": latency", xTitle, "µs (log)");
        throughput.getStyler().setXAxisLogarithmic(true);
        latency.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
        byServer.forEach((server, points) -> {
            double[] xs = points.keySet().stream().mapToDouble(x -> x).toArray();
            throughput.addSeries(server, xs, means(points, "ops_per_sec"));
            latency.addSeries(server + " p50", xs, means(points, "p50_us"));
            latency.addSeries(server + " p99", xs, means(points, "p99_us"));
        });
        files.add(save(throughput, experiment));
        files.add(save(latency, experiment + "-latency"));
    }

    private void categories(List<Path> files, String experiment, String title, String metric, String yTitle)
            throws IOException {
        categories(files, experiment, title, metric, yTitle, experiment);
    }

    /** One bar per server at each point; a skipped point shows no bar. */
    private void categories(List<Path> files, String experiment, String title, String metric, String yTitle,
                            String name) throws IOException {
        View view = VIEWS.stream().filter(v -> v.experiment().equals(experiment)).findFirst().orElseThrow();
        Map<String, List<Map<String, Object>>> groups = groups(view);
        if (groups.isEmpty()) {
            return;
        }
        List<String> points = groups.keySet().stream().map(k -> k.split("\t")[1]).distinct().toList();
        List<String> servers = groups.keySet().stream().map(k -> k.split("\t")[0]).distinct().toList();
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(LegendPosition.InsideNW);
        for (String server : servers) {
            List<Double> values = new ArrayList<>();
            for (String point : points) {
                List<Map<String, Object>> group = groups.getOrDefault(server + "\t" + point, List.of());
                List<Double> measured = group.stream().filter(Plot::measured).map(r -> r.get(metric))
                        .filter(v -> v instanceof Double).map(v -> (Double) v).toList();
                values.add(measured.isEmpty() ? 0.0 : mean(measured));
            }
            chart.addSeries(server, points, values);
        }
        files.add(save(chart, name));
    }

    /** DBSIZE against time from the shared deadline, first run of each server. */
    private void expiry(List<Path> files) throws IOException {
        XYChart chart = xyChart("Active expiry: keys left around the shared PXAT deadline", "ms after the deadline",
                "DBSIZE");
        for (Map<String, Object> run : runs.getOrDefault("expiry", List.of())) {
            if (measured(run) && whole(run.get("rep")).equals("1") && run.get("sample_t_ms") instanceof List<?> t) {
                chart.addSeries(String.valueOf(run.get("server")), doubles(t), doubles((List<?>) run.get("sample_dbsize")));
            }
        }
        if (!chart.getSeriesMap().isEmpty()) {
            files.add(save(chart, "expiry"));
        }
    }

    /** Time to ready against the AOF's command count. */
    private void replay(List<Path> files) throws IOException {
        Map<String, Map<Double, List<Map<String, Object>>>> byServer = byServerAndX("replay", "commands");
        if (byServer.isEmpty()) {
            return;
        }
        XYChart chart = xyChart("AOF replay: start to first +PONG", "SET commands in the AOF", "seconds");
        byServer.forEach((server, points) -> chart.addSeries(server,
                points.keySet().stream().mapToDouble(x -> x).toArray(), means(points, "ready_s")));
        files.add(save(chart, "replay"));
    }

    private Map<String, List<Map<String, Object>>> groups(View view) {
        return runs.getOrDefault(view.experiment(), List.of()).stream().collect(Collectors.groupingBy(
                r -> r.get("server") + "\t" + view.point().apply(r), LinkedHashMap::new, Collectors.toList()));
    }

    /** The measured runs of an experiment by server, then by the swept value (ascending). */
    private Map<String, Map<Double, List<Map<String, Object>>>> byServerAndX(String experiment, String parameter) {
        Map<String, Map<Double, List<Map<String, Object>>>> byServer = new LinkedHashMap<>();
        runs.getOrDefault(experiment, List.of()).stream().filter(Plot::measured)
                .sorted((a, b) -> Double.compare((Double) a.get(parameter), (Double) b.get(parameter)))
                .forEach(r -> byServer.computeIfAbsent(String.valueOf(r.get("server")), s -> new LinkedHashMap<>())
                        .computeIfAbsent((Double) r.get(parameter), x -> new ArrayList<>()).add(r));
        return byServer;
    }

    private static double[] means(Map<Double, List<Map<String, Object>>> points, String metric) {
        return points.values().stream().mapToDouble(group -> mean(group.stream().map(r -> r.get(metric))
                .filter(v -> v instanceof Double).map(v -> (Double) v).toList())).toArray();
    }

    private static XYChart xyChart(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(LegendPosition.InsideNW);
        return chart;
    }

    private Path save(Chart<?, ?> chart, String name) throws IOException {
        Path file = dir.resolve(name + ".png");
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapFormat.PNG);
        return file;
    }

    private static boolean measured(Map<String, Object> run) {
        return !run.containsKey("skipped") && !run.containsKey("failed");
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(v -> v).average().orElse(Double.NaN);
    }

    private static double[] doubles(List<?> values) {
        return values.stream().mapToDouble(v -> (Double) v).toArray();
    }

    private static String whole(Object number) {
        return number instanceof Double d ? String.valueOf(d.longValue()) : String.valueOf(number);
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf((long) value)
                : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String csvText(String text) {
        return "\"" + text.replace("\"", "\"\"") + "\"";
    }
}
