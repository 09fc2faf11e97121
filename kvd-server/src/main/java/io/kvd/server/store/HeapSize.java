package io.kvd.server.store;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * What HotSpot allocates for an object or an array on this JVM: a header (12 bytes with compressed
 * class pointers, else 16; an array's adds its 4-byte length), the fields or elements (a reference
 * is 4 bytes with compressed oops, else 8), the whole rounded up to 8 bytes. The store's memory
 * estimates ({@code memoryUsage}) add these up from the lengths of the arrays they hold, so an
 * estimate costs a walk over arrays, never over members.
 */
final class HeapSize {
    private static final boolean COMPRESSED_OOPS = hotSpotFlag("UseCompressedOops", true);
    private static final int OBJECT_HEADER = hotSpotFlag("UseCompressedClassPointers", true) ? 12 : 16;
    private static final int ARRAY_HEADER = align(OBJECT_HEADER + 4);
    static final int REFERENCE = COMPRESSED_OOPS ? 4 : 8;

    private HeapSize() {
    }

    private static long ofBytes(int length) {
        return align(ARRAY_HEADER + (long) length);
    }

    private static long ofInts(int length) {
        return align(ARRAY_HEADER + 4L * length);
    }

    private static long ofLongs(int length) {
        return align(ARRAY_HEADER + 8L * length);
    }

    private static long ofReferences(int length) {
        return align(ARRAY_HEADER + (long) REFERENCE * length);
    }

    static long of(byte[] array) {
        return array == null ? 0 : ofBytes(array.length);
    }

    static long of(int[] array) {
        return array == null ? 0 : ofInts(array.length);
    }

    static long of(long[] array) {
        return array == null ? 0 : ofLongs(array.length);
    }

    static long of(double[] array) {
        return array == null ? 0 : ofLongs(array.length);
    }

    static long of(Object[] array) {
        return array == null ? 0 : ofReferences(array.length);
    }

    /**
     * An instance of {@code type} without what it refers to: the header and every instance field
     * of it and its superclasses, rounded up. HotSpot packs fields into the header's gap and sorts
     * them by size, so the sum is what it allocates but for a rare padding of 4 bytes.
     */
    static long ofInstance(Class<?> type) {
        long bytes = OBJECT_HEADER;
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    bytes += fieldBytes(field.getType());
                }
            }
        }
        return align(bytes);
    }

    private static int fieldBytes(Class<?> type) {
        if (!type.isPrimitive()) {
            return REFERENCE;
        }
        if (type == long.class || type == double.class) {
            return 8;
        }
        if (type == int.class || type == float.class) {
            return 4;
        }
        return type == short.class || type == char.class ? 2 : 1;
    }

    private static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }

    private static int align(int bytes) {
        return (bytes + 7) & ~7;
    }

    /** A boolean flag of the running HotSpot; {@code otherwise} on another JVM. */
    private static boolean hotSpotFlag(String name, boolean otherwise) {
        try {
            return Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .getVMOption(name).getValue());
        } catch (RuntimeException | LinkageError e) {
            return otherwise;
        }
    }
}
