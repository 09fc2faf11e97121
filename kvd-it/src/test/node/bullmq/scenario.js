// A BullMQ scenario against the server at host:port: plain, bulk, delayed, prioritized, retried,
// failing and flow jobs, a Worker with concurrency 8, QueueEvents counting what it reads from the
// events stream, a queue trimming the jobs it keeps, a job scheduler on a queue of its own (when
// its iterations are added depends on timing), and counts at the end.
// Prints one JSON summary whose every field is deterministic, so two servers can be compared by
// their summaries. Exits 1 when a step fails or a deadline passes, so it never hangs.
//
// usage: node scenario.js host:port
import { FlowProducer, Queue, QueueEvents, Worker } from 'bullmq';

const DEADLINE_MS = 45_000;
const [host, port] = (process.argv[2] ?? '').split(':');
if (!host || !port) {
    console.error('usage: node scenario.js host:port');
    process.exit(64);
}
const connection = { host, port: Number(port), maxRetriesPerRequest: null };

const deadline = setTimeout(() => {
    console.error(`deadline of ${DEADLINE_MS} ms passed; progress: ${JSON.stringify(progress())}`);
    process.exit(1);
}, DEADLINE_MS);
deadline.unref();

const events = { completed: 0, failed: 0, progress: 0, added: 0, delayed: 0, waiting: 0, removed: 0 };
const workerEvents = { completed: 0, failed: 0, trimmedCompleted: 0, ticksCompleted: 0 };
const progress = () => ({ events, workerEvents });

// What the processor does, by job name. Every result is a function of the job's data, and a
// "flaky" job fails on its first attempt only, so the outcome does not depend on timing.
async function processJob(job) {
    switch (job.name) {
        case 'sum':
            return job.data.a + job.data.b;
        case 'progress':
            await job.updateProgress(50);
            await job.log(`half of ${job.data.n}`);
            await job.updateProgress({ done: job.data.n });
            return job.data.n * 2;
        case 'flaky':
            if (job.attemptsMade === 0) {
                throw new Error(`flaky ${job.data.n} fails once`);
            }
            return `flaky ${job.data.n} ok after ${job.attemptsMade} failure`;
        case 'broken':
            throw new Error(`broken ${job.data.n}`);
        case 'child':
            return job.data.n * job.data.n;
        case 'parent': {
            const values = Object.values(await job.getChildrenValues());
            return values.reduce((sum, value) => sum + value, 0);
        }
        case 'tick':
            return 'tick';
        default:
            throw new Error(`no processor for ${job.name}`);
    }
}

// Polls; the process deadline bounds it.
async function until(condition) {
    while (!condition()) {
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
}

async function main() {
    const queue = new Queue('work', { connection });
    const trimmed = new Queue('trimmed', { connection });
    const ticks = new Queue('ticks', { connection });
    for (const each of [queue, trimmed, ticks]) {
        await each.obliterate({ force: true });
    }

    // From the start of the (obliterated, so empty) events stream: with '$', the default, the
    // first adds could come before QueueEvents' first XREAD and go unseen.
    const queueEvents = new QueueEvents('work', { connection, lastEventId: '0-0' });
    for (const name of Object.keys(events)) {
        queueEvents.on(name, () => events[name]++);
    }
    await queueEvents.waitUntilReady();

    // Every job is added before the workers start.
    const jobs = [];
    for (let n = 1; n <= 20; n++) {
        jobs.push(await queue.add('sum', { a: n, b: 100 }));
    }
    jobs.push(...await queue.addBulk(Array.from({ length: 30 }, (_, i) => ({
        name: 'sum', data: { a: i, b: 1000 }, opts: { removeOnComplete: true },
    }))));
    for (let n = 1; n <= 10; n++) {
        jobs.push(await queue.add('sum', { a: n, b: 10_000 }, { priority: 11 - n }));
    }
    for (let n = 1; n <= 5; n++) {
        jobs.push(await queue.add('sum', { a: n, b: 100_000 }, { delay: 200 + n * 20 }));
    }
    for (let n = 1; n <= 4; n++) {
        jobs.push(await queue.add('progress', { n }));
    }
    for (let n = 1; n <= 3; n++) {
        jobs.push(await queue.add('flaky', { n }, { attempts: 3, backoff: { type: 'fixed', delay: 100 } }));
    }
    for (let n = 1; n <= 2; n++) {
        jobs.push(await queue.add('broken', { n }, { attempts: 2, backoff: { type: 'exponential', delay: 50 } }));
    }
    jobs.push(await queue.add('broken', { n: 3 }, { removeOnFail: true }));

    const flowProducer = new FlowProducer({ connection });
    const flow = await flowProducer.add({
        name: 'parent', queueName: 'work', data: {},
        children: [1, 2, 3].map((n) => ({ name: 'child', queueName: 'work', data: { n } })),
    });
    jobs.push(flow.job, ...flow.children.map((child) => child.job));

    await ticks.upsertJobScheduler('ticker', { every: 100, limit: 3 }, { name: 'tick', data: {} });

    for (let n = 1; n <= 12; n++) {
        await trimmed.add('sum', { a: n, b: 0 }, { removeOnComplete: { count: 5 }, removeOnFail: { count: 1 } });
    }

    const worker = new Worker('work', processJob, { connection, concurrency: 8 });
    const trimmedWorker = new Worker('trimmed', processJob, { connection });
    worker.on('completed', () => workerEvents.completed++);
    worker.on('failed', () => workerEvents.failed++);
    worker.on('error', (error) => console.error('worker error:', error));
    trimmedWorker.on('completed', () => workerEvents.trimmedCompleted++);
    trimmedWorker.on('error', (error) => console.error('trimmed worker error:', error));
    const ticksWorker = new Worker('ticks', processJob, { connection });
    ticksWorker.on('completed', () => workerEvents.ticksCompleted++);
    ticksWorker.on('error', (error) => console.error('ticks worker error:', error));

    // 20 + 30 + 10 + 5 + 4 sums and progress jobs, 3 flaky, 3 children and 1 parent complete; 3
    // broken jobs fail for good.
    const expectedCompleted = 20 + 30 + 10 + 5 + 4 + 3 + 3 + 1;
    const expectedFailed = 3;
    await until(() => events.completed >= expectedCompleted && events.failed >= expectedFailed
        && workerEvents.completed >= expectedCompleted && workerEvents.trimmedCompleted >= 12
        && workerEvents.ticksCompleted >= 3);

    const retained = {};
    for (const job of jobs) {
        const current = await queue.getJob(job.id);
        retained[`${job.name}:${JSON.stringify(job.data)}`] = current === undefined ? 'removed'
            : { state: await current.getState(), returnvalue: current.returnvalue ?? null,
                attemptsMade: current.attemptsMade, failedReason: current.failedReason ?? null,
                progress: current.progress };
    }
    const progressJob = jobs.find((job) => job.name === 'progress');
    const summary = {
        counts: await queue.getJobCounts('completed', 'failed', 'delayed', 'wait', 'active', 'prioritized',
            'waiting-children', 'paused'),
        trimmedCounts: await trimmed.getJobCounts('completed', 'failed', 'wait', 'active'),
        ticksCounts: await ticks.getJobCounts('completed', 'failed', 'delayed', 'wait', 'active'),
        trimmedRetained: (await trimmed.getCompleted()).map((job) => job.returnvalue).sort((a, b) => a - b),
        events,
        workerEvents,
        logs: await queue.getJobLogs(progressJob.id),
        schedulers: (await ticks.getJobSchedulers()).map((scheduler) => ({ key: scheduler.key, every: scheduler.every,
            limit: scheduler.limit })),
        retained,
    };

    await worker.close();
    await trimmedWorker.close();
    await ticksWorker.close();
    await queueEvents.close();
    await flowProducer.close();
    await queue.close();
    await trimmed.close();
    await ticks.close();
    console.log(JSON.stringify(summary, null, 1));
}

main().then(() => process.exit(0), (error) => {
    console.error(error);
    process.exit(1);
});
