// BullMQ throughput against the server at host:port: JOBS trivial jobs added with addBulk (1,000 a
// call), then processed by one Worker with concurrency CONCURRENCY. Prints jobs per second for
// each phase and, given the server's pid (on this machine), its CPU seconds per 1,000 jobs in
// each phase (user + system, from /proc). Exits 1 if the run does not finish in 10 minutes.
//
// usage: node throughput.js host:port [jobs] [concurrency] [server-pid]
import { readFileSync } from 'node:fs';
import { Queue, Worker } from 'bullmq';

const [host, port] = (process.argv[2] ?? '').split(':');
const jobs = Number(process.argv[3] ?? 20_000);
const concurrency = Number(process.argv[4] ?? 50);
const pid = process.argv[5];
if (!host || !port) {
    console.error('usage: node throughput.js host:port [jobs] [concurrency] [server-pid]');
    process.exit(64);
}
const connection = { host, port: Number(port), maxRetriesPerRequest: null };
setTimeout(() => {
    console.error('not finished in 10 minutes');
    process.exit(1);
}, 600_000).unref();

// utime + stime, fields 14 and 15 of /proc/PID/stat, in clock ticks of 10 ms.
function serverCpuSeconds() {
    if (!pid) {
        return NaN;
    }
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
}

function phase(name, startMs, startCpu) {
    const seconds = (performance.now() - startMs) / 1000;
    const cpu = ((serverCpuSeconds() - startCpu) * 1000 / jobs).toFixed(3);
    return `${name}_jobs_per_s=${Math.round(jobs / seconds)} ${name}_server_cpu_s_per_1000_jobs=${cpu}`;
}

const queue = new Queue('throughput', { connection });
await queue.obliterate({ force: true });

let start = performance.now();
let cpu = serverCpuSeconds();
for (let added = 0; added < jobs; added += 1000) {
    await queue.addBulk(Array.from({ length: Math.min(1000, jobs - added) }, (_, i) => ({
        name: 'noop', data: { n: added + i }, opts: { removeOnComplete: true },
    })));
}
const adding = phase('add', start, cpu);

let completed = 0;
let allCompleted;
const finished = new Promise((resolve) => {
    allCompleted = resolve;
});
start = performance.now();
cpu = serverCpuSeconds();
const worker = new Worker('throughput', async (job) => job.data.n, { connection, concurrency });
worker.on('completed', () => {
    if (++completed === jobs) {
        allCompleted();
    }
});
worker.on('failed', (job, error) => console.error(`job ${job?.id} failed: ${error}`));
await finished;
const processing = phase('process', start, cpu);

await worker.close();
await queue.obliterate({ force: true });
await queue.close();
console.log(`${adding} ${processing}`);
process.exit(0);
