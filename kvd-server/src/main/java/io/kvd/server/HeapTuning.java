package io.kvd.server;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import org.slf4j.Logger;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.NotificationEmitter;
import javax.management.NotificationFilter;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * What the server sets of its own JVM at start, so that {@code java -jar kvd.jar} behaves as the
 * figures in docs/performance.md say, and what it reports of the rest.
 *
 * <p>Of the options the store's memory figures depend on, only the heap's free ratios can be set
 * by a running JVM (HotSpot makes them manageable). G1 keeps up to 70% of its committed heap free
 * by default, memory that collections have touched and that stays resident; at most 10% free makes
 * it give committed memory back after a collection (measured with the plain jar, 1 M keys, after a
 * forced GC: 165 B/key of resident memory with the defaults, a median of 83 with these). The collector and its region size cannot
 * change after start; the store sizes its arrays to whatever regions G1 has (store/Regions.java).
 * Options the user gave on the command line are left as they are.
 *
 * <p>The C library's heap is trimmed too, as {@code -XX:TrimNativeHeapInterval} would (a launch
 * option only): the compiler's arenas, freed once the code is compiled, otherwise stay resident
 * in malloc's free lists, 14-16 MB after loading 1 M keys.
 */
final class HeapTuning {
    private static final String MIN_FREE = "MinHeapFreeRatio";
    private static final String MAX_FREE = "MaxHeapFreeRatio";
    private static final int MIN_FREE_PERCENT = 1;
    private static final int MAX_FREE_PERCENT = 10;
    private static final long TRIM_INTERVAL_SECONDS = 10;

    private HeapTuning() {
    }

    static void apply(Logger log) {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotspot == null) {
            log.warn("JVM: not HotSpot ({}): heap left as it is; memory and latency figures were measured on HotSpot",
                    System.getProperty("java.vm.name"));
            return;
        }
        trimNativeHeapPeriodically(log);
        if (isDefault(hotspot.getVMOption(MIN_FREE)) && isDefault(hotspot.getVMOption(MAX_FREE))) {
            // Min first: HotSpot refuses a maximum below the current minimum (40 by default).
            hotspot.setVMOption(MIN_FREE, Integer.toString(MIN_FREE_PERCENT));
            hotspot.setVMOption(MAX_FREE, Integer.toString(MAX_FREE_PERCENT));
        }
        String collector = collectorName();
        long maxHeapMb = Runtime.getRuntime().maxMemory() >> 20;
        String freeRatios = hotspot.getVMOption(MIN_FREE).getValue() + "-" + hotspot.getVMOption(MAX_FREE).getValue() + "%";
        if (collector.equals("G1")) {
            long regionMb = Long.parseLong(hotspot.getVMOption("G1HeapRegionSize").getValue()) >> 20;
            log.info("JVM: collector G1, region size {} MB (the store's arrays fill one region each), max heap {} MB,"
                    + " heap kept {} free, pause goal {} ms", regionMb, maxHeapMb, freeRatios,
                    hotspot.getVMOption("MaxGCPauseMillis").getValue());
        } else {
            log.warn("JVM: collector {}, max heap {} MB: the store lays its memory out in G1 regions, which {} may"
                    + " copy; memory and latency figures were measured with G1 (the JVM's default)",
                    collector, maxHeapMb, collector);
        }
    }

    /**
     * Trims every {@link #TRIM_INTERVAL_SECONDS} seconds and right after each full collection, on a
     * thread of its own: the compiler's arena chunks reach malloc's free lists up to 5 s after they
     * are freed (HotSpot's chunk pool cleaner), and a full collection is when an operator looks.
     */
    private static void trimNativeHeapPeriodically(Logger log) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName diagnosticCommand;
        try {
            diagnosticCommand = new ObjectName("com.sun.management:type=DiagnosticCommand");
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
        ScheduledExecutorService trimmer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "kvd-native-heap-trim");
            thread.setDaemon(true);
            return thread;
        });
        Runnable trim = () -> {
            try {
                server.invoke(diagnosticCommand, "systemTrimNativeHeap", new Object[0], new String[0]);
            } catch (JMException e) {
                log.debug("cannot trim the native heap: {}", e.toString());
            }
        };
        trimmer.scheduleWithFixedDelay(trim, TRIM_INTERVAL_SECONDS, TRIM_INTERVAL_SECONDS, TimeUnit.SECONDS);
        NotificationListener afterFullCollection = (notification, handback) -> {
            CompositeData data = (CompositeData) notification.getUserData();
            if (GarbageCollectionNotificationInfo.from(data).getGcAction().equals("end of major GC")) {
                trimmer.execute(trim);
            }
        };
        NotificationFilter collectionsOnly = notification ->
                notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION);
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) collector).addNotificationListener(afterFullCollection, collectionsOnly, null);
        }
    }

    private static boolean isDefault(VMOption option) {
        return option.getOrigin() == VMOption.Origin.DEFAULT;
    }

    /** G1, ZGC, Shenandoah, Parallel or Serial from the names of the collector's beans; another's bean name. */
    private static String collectorName() {
        String first = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).findFirst().orElse("none");
        if (first.startsWith("G1")) {
            return "G1";
        }
        if (first.startsWith("ZGC")) {
            return "ZGC";
        }
        if (first.startsWith("Shenandoah")) {
            return "Shenandoah";
        }
        if (first.equals("PS Scavenge")) {
            return "Parallel";
        }
        if (first.equals("Copy")) {
            return "Serial";
        }
        return first;
    }
}
