/**
 * What a structure search reports as it goes, for the CLI's progress line and the summary Ctrl+C
 * prints. Reporting changes nothing in the search: the calls come after each unit of work.
 */
export interface SearchProgress {
  /** Hill climbing / tabu: after each move, the moves made in all and the current structure's score. */
  move?(moves: number, score: number): void;
  /** K2: after each node's parents are chosen, the nodes done of n and the structure's score so far. */
  node?(done: number, n: number, score: number): void;
  /** PC: after each independence test, the tests run and the size of the conditioning sets. */
  test?(tests: number, level: number): void;
}
