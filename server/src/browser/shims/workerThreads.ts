/**
 * node:worker_threads for the web build: there are none in a Web Worker. Code that would start one
 * (the interactive marginals' warm worker) catches this and computes on its own thread instead.
 */
export class Worker {
  constructor() {
    throw new Error('worker threads are not available in VS Code for the Web');
  }
}
