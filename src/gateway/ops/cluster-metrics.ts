import cluster, { type Worker } from 'node:cluster';
import { Gauge, Registry } from 'prom-client';
import { isMetricsAnswer, metricsRequest } from './metrics-ipc.ts';
import { combineSnapshots, type MetricSnapshot, type MetricsExposition, renderCombined } from './metrics-snapshot.ts';

/** How long a scrape waits for a worker; a worker that has not answered by then counts with its previous answer. */
export const WORKER_ANSWER_MS = 1_000;

/** The kinds of metric an exited worker's last values are kept for: they only ever go up. */
const CUMULATIVE = new Set(['counter', 'histogram']);

export interface ClusterMetrics extends MetricsExposition {
  /** Stops following worker exits. */
  close(): void;
}

type Answer = readonly MetricSnapshot[];

/**
 * The metrics port of a cluster primary: at each scrape it asks every worker for its metrics
 * (IPC, in parallel, each bounded by `answerTimeoutMs`) and serves their combination, each
 * metric by its own aggregator (metrics.ts): the totals of the whole gateway, whichever worker
 * each request reached. So that counters never go backwards:
 * - a worker that does not answer in time counts with its previous answer (the scrape waits no
 *   longer; `tokengate_gateway_cluster_workers_late` says how many), and
 * - the counters and histograms of a worker that exited stay in the sum with the values of its
 *   last answer (what it counted after that is lost); its gauges go with it.
 */
export function createClusterMetrics(options: { answerTimeoutMs?: number } = {}): ClusterMetrics {
  const timeoutMs = options.answerTimeoutMs ?? WORKER_ANSWER_MS;
  /** Each worker's newest answer, with the scrape it answered (scrapes may overlap). */
  const latest = new Map<number, { id: number; answer: Answer }>();
  const exited = new Set<number>();
  let retired: Promise<Answer> = Promise.resolve([]);
  let sequence = 0;
  let counted = { workers: 0, late: 0 };

  const own = new Registry();
  new Gauge({
    name: 'tokengate_gateway_cluster_workers',
    help: 'Worker processes asked for their metrics at this scrape.',
    registers: [own],
    collect() {
      this.set(counted.workers);
    },
  });
  new Gauge({
    name: 'tokengate_gateway_cluster_workers_late',
    help: `Workers that did not answer this scrape within ${timeoutMs} ms: their previous answer is counted instead.`,
    registers: [own],
    collect() {
      this.set(counted.late);
    },
  });

  const onExit = (worker: Worker) => {
    exited.add(worker.id);
    const last = latest.get(worker.id)?.answer;
    latest.delete(worker.id);
    if (!last) return;
    const kept = last.filter((metric) => CUMULATIVE.has(String(metric.type)));
    retired = retired.then((past) => combineSnapshots([past, kept]).getMetricsAsJSON());
  };
  cluster.on('exit', onExit);

  return {
    contentType: own.contentType,
    async render() {
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w?.isConnected() === true);
      const id = ++sequence;
      const answers = await Promise.all(workers.map((worker) => ask(worker, id, timeoutMs)));
      // From here to `past` without a pause: a worker that exits meanwhile is either in `retired`
      // or among the answers, never both.
      const sets: Answer[] = [];
      let late = 0;
      workers.forEach((worker, i) => {
        if (exited.has(worker.id)) return;
        const answer = answers[i];
        if (!answer) late++;
        else if ((latest.get(worker.id)?.id ?? 0) < id) latest.set(worker.id, { id, answer });
        const counts = answer ?? latest.get(worker.id)?.answer;
        if (counts) sets.push(counts);
      });
      const past = retired;
      counted = { workers: workers.length, late };
      return renderCombined([await past, ...sets, await own.getMetricsAsJSON()]);
    },
    close: () => void cluster.off('exit', onExit),
  };
}

/** One worker's metrics, or undefined when it does not answer within the bound (or exits). */
function ask(worker: Worker, id: number, timeoutMs: number): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const finish = (answer?: Answer) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onGone);
      resolve(answer);
    };
    const onMessage = (message: unknown) => {
      if (isMetricsAnswer(message, id)) finish(message.metrics);
    };
    const onGone = () => finish();
    const timer = setTimeout(finish, timeoutMs);
    worker.on('message', onMessage);
    worker.once('exit', onGone);
    worker.send(metricsRequest(id), (error) => {
      if (error) finish();
    });
  });
}
