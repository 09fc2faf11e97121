package io.kvd.bench;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class RequestBudgetTest {

    @Test
    void claimsAreGrantedInFullUntilTheCountRunsOutThenInPartThenNotAtAll() {
        RequestBudget budget = new RequestBudget(20, null);
        assertThat(budget.claim(8)).isEqualTo(8);
        assertThat(budget.claim(8)).isEqualTo(8);
        assertThat(budget.claim(8)).isEqualTo(4);
        assertThat(budget.claim(8)).isZero();
        assertThat(budget.claim(1)).isZero();
    }

    @Test
    void aPassedDeadlineGrantsNothingWhateverTheCount() {
        RequestBudget budget = new RequestBudget(BenchSettings.UNLIMITED, Duration.ZERO);
        assertThat(budget.claim(8)).isZero();
    }

    @Test
    void withoutACountOrAPassedDeadlineEveryClaimIsGranted() {
        RequestBudget budget = new RequestBudget(BenchSettings.UNLIMITED, Duration.ofHours(1));
        assertThat(budget.claim(16)).isEqualTo(16);
        assertThat(budget.claim(16)).isEqualTo(16);
    }
}
