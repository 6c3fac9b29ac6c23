import type { Catalogue } from '../catalogue/catalogue.js';
import type { HostedTool } from '../catalogue/hosted-tool.js';
import type { Message } from '../messages/messages.js';
import type { Model, ToolChoice } from '../messages/model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { Usage } from '../messages/usage.js';

/** What `prepareStep` is shown before each model call: the run so far. */
export interface StepContext {
  readonly runId: string;
  /** The 1-based turn about to be asked for. */
  readonly turn: number;
  readonly messages: readonly Message[];
  readonly turns: readonly ModelTurn[];
  readonly usage: Usage;
  readonly catalogue: Catalogue;
}

/**
 * What one step may change, for this model call only; anything left out keeps the run's option. Tools
 * outside `activeTools` are neither shown to the model nor run: a call to one is refused (`inactive_tool`).
 */
export interface StepSettings {
  /**
   * Catalogue tool names the model sees and may call at this step (a subset of the catalogue, the search tool
   * included). A filter: a deferred tool named here is shown only once a search loaded it.
   */
  readonly activeTools?: readonly string[];
  readonly toolChoice?: ToolChoice;
  readonly model?: Model;
  readonly system?: string;
  /** Provider-hosted tools for this step (replaces the run's `hostedTools`). */
  readonly hostedTools?: readonly HostedTool[];
}

/**
 * Called before every model call (also after a resume): returns what changes for that call, or nothing.
 * It is the application's code: a throw stops the run, and settings that cannot work (a tool name not in
 * the catalogue, a tool choice naming an inactive tool) throw {@link InvalidLoopOptionsError}.
 */
export type PrepareStep = (context: StepContext) => StepSettings | undefined | Promise<StepSettings | undefined>;

/**
 * A step's plan as plain data: what the model was offered at that step. On the `turn-start` event, on
 * `onTurn`, in every journal entry of the step's calls (`step`), and kept in a paused run, so a resumed call
 * is checked against the tools that were active when the model made it. Present only for runs that restrict
 * or change something per step (`prepareStep` or `activeTools`).
 */
export interface StepPlan {
  readonly turn: number;
  /**
   * The tools the plan allows, in catalogue order (the search tool last); absent: the whole catalogue. With
   * deferred tools, one named here is offered only once a search loaded it (see the paused run's loadedTools).
   */
  readonly activeTools?: readonly string[];
  readonly toolChoice?: ToolChoice;
  /** `provider:modelId` of the model asked. */
  readonly model: string;
  /** Set when `prepareStep` replaced the system text at this step (its text is not repeated here). */
  readonly systemChanged?: true;
  /** Kinds of the hosted tools offered (`web_search`, `code_execution`, `provider`). */
  readonly hostedTools?: readonly string[];
}
