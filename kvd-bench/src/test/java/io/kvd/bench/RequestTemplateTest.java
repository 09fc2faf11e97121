package io.kvd.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class RequestTemplateTest {

    @Test
    void setCarriesTheKeyNumberAsTwelveDigitsAndTheValueAsXs() {
        assertThat(written(Workload.SET.templates(3, false)[0], 42))
                .isEqualTo("*3\r\n$3\r\nSET\r\n$16\r\nkey:000000000042\r\n$3\r\nxxx\r\n");
    }

    @Test
    void theLargestKeyNumberFillsEveryDigit() {
        assertThat(written(Workload.GET.templates(3, false)[0], RequestTemplate.MAX_KEY_RANGE - 1))
                .isEqualTo("*2\r\n$3\r\nGET\r\n$16\r\nkey:999999999999\r\n");
    }

    @Test
    void aStampedSetValueEndsWithTheKeyNumbersDigits() {
        assertThat(written(Workload.SET.templates(16, true)[0], 42))
                .isEqualTo("*3\r\n$3\r\nSET\r\n$16\r\nkey:000000000042\r\n$16\r\nxxxx000000000042\r\n");
    }

    @Test
    void aStampedValueShorterThanTheDigitsKeepsTheLastOnes() {
        assertThat(written(Workload.SET.templates(3, true)[0], 12345))
                .isEqualTo("*3\r\n$3\r\nSET\r\n$16\r\nkey:000000012345\r\n$3\r\n345\r\n");
        assertThat(RequestTemplate.stampedValue(3, 12345)).asString().isEqualTo("345");
    }

    @Test
    void slotIsTheClusterSlotOfTheKeyForTheNumber() {
        RequestTemplate get = Workload.GET.templates(3, false)[0];

        // redis-server 7.0's CLUSTER KEYSLOT of key:000000000001 and key:000000000004.
        assertThat(get.slot(1)).isEqualTo(8924);
        assertThat(get.slot(4)).isEqualTo(12921);
        assertThat(get.slot(1)).isEqualTo(8924);
    }

    @Test
    void aKeylessRequestsSlotIsItsNumberModuloTheSlots() {
        assertThat(Workload.PING.templates(3, false)[0].slot(20_000)).isEqualTo(20_000 - 16_384);
    }

    @Test
    void keyZeroIsAllZeros() {
        assertThat(written(Workload.GET.templates(3, false)[0], 0)).isEqualTo("*2\r\n$3\r\nGET\r\n$16\r\nkey:000000000000\r\n");
    }

    @Test
    void incrCountsUnderCounterKeysAsRedisBenchmarkDoes() {
        assertThat(written(Workload.INCR.templates(3, false)[0], 7))
                .isEqualTo("*2\r\n$4\r\nINCR\r\n$20\r\ncounter:000000000007\r\n");
    }

    @Test
    void pingHasNoKey() {
        assertThat(written(Workload.PING.templates(3, false)[0], 7)).isEqualTo("*1\r\n$4\r\nPING\r\n");
    }

    @Test
    void mixDrawsFromSetAndGet() {
        RequestTemplate[] mix = Workload.MIX.templates(1, false);
        assertThat(mix).hasSize(2);
        assertThat(written(mix[0], 1)).startsWith("*3\r\n$3\r\nSET\r\n");
        assertThat(written(mix[1], 1)).startsWith("*2\r\n$3\r\nGET\r\n");
    }

    @Test
    void consecutiveRequestsInOneBufferEachGetTheirOwnKey() {
        RequestTemplate get = Workload.GET.templates(3, false)[0];
        ByteBuf out = Unpooled.buffer();
        get.writeTo(out, 123);
        get.writeTo(out, 5);
        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo(
                "*2\r\n$3\r\nGET\r\n$16\r\nkey:000000000123\r\n*2\r\n$3\r\nGET\r\n$16\r\nkey:000000000005\r\n");
    }

    private static String written(RequestTemplate template, long keyNumber) {
        ByteBuf out = Unpooled.buffer();
        template.writeTo(out, keyNumber);
        assertThat(out.readableBytes()).isEqualTo(template.length());
        return out.toString(StandardCharsets.US_ASCII);
    }
}
