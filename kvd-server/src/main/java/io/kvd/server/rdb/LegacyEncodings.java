package io.kvd.server.rdb;

import java.util.ArrayList;
import java.util.List;

/**
 * The packed encodings only older Redis versions wrote, read to be converted on load: the ziplist
 * (ziplist.c: RDB 9 and earlier hashes, sorted sets and list nodes) and the zipmap (zipmap.c:
 * hashes before Redis 2.6). Every length is checked against the blob.
 */
final class LegacyEncodings {
    private static final int ZIPLIST_HEADER = 10;
    private static final int ZIPLIST_END = 0xFF;

    private LegacyEncodings() {
    }

    /** The elements of a ziplist blob, integers as their decimal text. */
    static List<byte[]> ziplist(byte[] zl) {
        if (zl.length < ZIPLIST_HEADER + 1 || RedisListpack.readLe(zl, 0, 4) != zl.length
                || (zl[zl.length - 1] & 0xFF) != ZIPLIST_END) {
            throw new RdbFormatException("ziplist header is corrupt");
        }
        int declared = (int) RedisListpack.readLe(zl, 8, 2);
        List<byte[]> elements = new ArrayList<>(Math.min(declared, 1024));
        int end = zl.length - 1;
        int p = ZIPLIST_HEADER;
        while (p < end) {
            int prevlen = zl[p] & 0xFF;
            p += prevlen < 254 ? 1 : 5;
            need(p, 1, end);
            int b = zl[p] & 0xFF;
            switch (b >> 6) {
                case 0 -> {
                    elements.add(slice(zl, p + 1, b & 0x3F, end));
                    p += 1 + (b & 0x3F);
                }
                case 1 -> {
                    need(p, 2, end);
                    int length = (b & 0x3F) << 8 | (zl[p + 1] & 0xFF);
                    elements.add(slice(zl, p + 2, length, end));
                    p += 2 + length;
                }
                case 2 -> {
                    need(p, 5, end);
                    long length = (long) (zl[p + 1] & 0xFF) << 24 | (zl[p + 2] & 0xFF) << 16 | (zl[p + 3] & 0xFF) << 8
                            | (zl[p + 4] & 0xFF);
                    elements.add(slice(zl, p + 5, length, end));
                    p += 5 + (int) length;
                }
                default -> {
                    int bytes = switch (b) {
                        case 0xC0 -> 2;
                        case 0xD0 -> 4;
                        case 0xE0 -> 8;
                        case 0xF0 -> 3;
                        case 0xFE -> 1;
                        default -> b >= 0xF1 && b <= 0xFD ? 0 : -1;
                    };
                    if (bytes < 0) {
                        throw new RdbFormatException("ziplist entry has an invalid encoding");
                    }
                    if (bytes == 0) {
                        elements.add(RedisListpack.ascii((b & 0x0F) - 1));
                    } else {
                        need(p, 1 + bytes, end);
                        int shift = 64 - 8 * bytes;
                        elements.add(RedisListpack.ascii((RedisListpack.readLe(zl, p + 1, bytes) << shift) >> shift));
                    }
                    p += 1 + bytes;
                }
            }
        }
        if (p != end || declared != 65535 && declared != elements.size()) {
            throw new RdbFormatException("ziplist entries do not match its header");
        }
        return elements;
    }

    /** The fields and values of a zipmap blob, alternating. */
    static List<byte[]> zipmap(byte[] zm) {
        List<byte[]> elements = new ArrayList<>();
        int end = zm.length;
        int p = 1;
        while (true) {
            need(p, 1, end);
            int b = zm[p] & 0xFF;
            if (b == 0xFF) {
                break;
            }
            boolean value = elements.size() % 2 == 1;
            long length;
            if (b < 254) {
                length = b;
                p += 1;
            } else if (b == 254) {
                need(p, 5, end);
                length = RedisListpack.readLe(zm, p + 1, 4);
                p += 5;
            } else {
                throw new RdbFormatException("zipmap length is invalid");
            }
            int free = 0;
            if (value) {
                need(p, 1, end);
                free = zm[p] & 0xFF;
                p += 1;
            }
            elements.add(slice(zm, p, length, end));
            p += (int) length + free;
        }
        if (elements.size() % 2 != 0 || p != end - 1) {
            throw new RdbFormatException("zipmap ends inside an entry");
        }
        return elements;
    }

    private static void need(int p, int bytes, int end) {
        if (p + bytes > end) {
            throw new RdbFormatException("packed entry runs past the end");
        }
    }

    private static byte[] slice(byte[] b, int from, long length, int end) {
        if (length < 0 || from + length > end) {
            throw new RdbFormatException("packed string runs past the end");
        }
        byte[] out = new byte[(int) length];
        System.arraycopy(b, from, out, 0, (int) length);
        return out;
    }
}
