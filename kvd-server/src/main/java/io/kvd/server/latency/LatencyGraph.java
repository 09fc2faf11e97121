package io.kvd.server.latency;

import java.util.Arrays;
import java.util.List;

/**
 * LATENCY GRAPH's ASCII art, character for character Redis's: latency.c's
 * latencyCommandGenSparkeline (a header, a rule, the samples oldest first) drawn by sparkline.c's
 * sparklineRender with 80 columns, 4 rows and the fill option, each sample labelled with how long
 * ago it was.
 */
final class LatencyGraph {
    private static final int COLUMNS = 80;
    private static final int ROWS = 4;
    /** sparkline.c's charset_fill; rows beneath a sample's top are drawn as '|'. */
    private static final String FILL = "_o#";
    private static final int LABEL_MARGIN_TOP = 1;

    private LatencyGraph() {
    }

    static String render(String event, LatencyMonitor.TimeSeries series, long nowSeconds) {
        List<LatencyMonitor.Sample> samples = series.samples();
        long low = samples.stream().mapToLong(LatencyMonitor.Sample::latencyMs).min().orElse(0);
        long high = samples.stream().mapToLong(LatencyMonitor.Sample::latencyMs).max().orElse(0);
        String[] labels = new String[samples.size()];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = ago(nowSeconds - samples.get(i).timeSeconds());
        }
        StringBuilder graph = new StringBuilder();
        graph.append(event).append(" - high ").append(high).append(" ms, low ").append(low)
                .append(" ms (all time high ").append(series.max).append(" ms)\n");
        graph.append("-".repeat(COLUMNS)).append('\n');
        // sparklineRender: the sequence in slices of 80 columns, each scaled to the whole's range.
        for (int from = 0; from < samples.size(); from += COLUMNS) {
            if (from != 0) {
                graph.append('\n');
            }
            renderRange(graph, samples, labels, low, high, from, Math.min(COLUMNS, samples.size() - from));
        }
        return graph.toString();
    }

    /** The label of a sample {@code elapsed} seconds old: seconds, minutes, hours or days, as latency.c. */
    private static String ago(long elapsed) {
        if (elapsed < 60) {
            return elapsed + "s";
        } else if (elapsed < 3600) {
            return elapsed / 60 + "m";
        } else if (elapsed < 3600 * 24) {
            return elapsed / 3600 + "h";
        }
        return elapsed / (3600 * 24) + "d";
    }

    /**
     * sparkline.c's sparklineRenderRange: ROWS rows of bars (each row three steps high), a blank
     * line, then the labels written downwards, one character per line.
     */
    private static void renderRange(StringBuilder out, List<LatencyMonitor.Sample> samples, String[] labels,
                                    long min, long max, int offset, int length) {
        double range = max - min == 0 ? 1 : max - min;
        int steps = FILL.length() * ROWS;
        char[] line = new char[length];
        for (int row = 0; ; row++) {
            boolean more = false;
            Arrays.fill(line, ' ');
            for (int j = 0; j < length; j++) {
                double value = samples.get(offset + j).latencyMs() - min;
                // C's "(int) (relval*steps)/relmax": the product truncated, then divided as a double.
                int step = (int) ((int) (value * steps) / range);
                step = Math.min(Math.max(step, 0), steps - 1);
                if (row < ROWS) {
                    int charIndex = step - (ROWS - row - 1) * FILL.length();
                    more = true;
                    if (charIndex >= 0 && charIndex < FILL.length()) {
                        line[j] = FILL.charAt(charIndex);
                    } else if (charIndex >= FILL.length()) {
                        line[j] = '|';
                    }
                } else {
                    if (row - ROWS < LABEL_MARGIN_TOP) {
                        more = true;
                        break;
                    }
                    String label = labels[offset + j];
                    int labelChar = row - ROWS - LABEL_MARGIN_TOP;
                    if (label.length() > labelChar) {
                        more = true;
                        line[j] = label.charAt(labelChar);
                    }
                }
            }
            if (!more) {
                return;
            }
            out.append(line).append('\n');
        }
    }
}
