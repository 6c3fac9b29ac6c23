import { isPromiseLike } from '../async/eventually.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { HostedTool } from '../catalogue/hosted-tool.js';
import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { WithOneModel } from '../fallback/one-model.js';
import { isModel } from '../messages/is-model.js';
import type { DeferredTools, Model, ToolChoice, ToolDeclaration } from '../messages/model.js';
import { activeDeclarations, activeDeferredTools } from '../step/active-declarations.js';
import type { StepPlan, StepSettings } from '../step/step-settings.js';
import type { LoadedTools } from './loaded-tools.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopState } from './loop-state.js';

type Options = WithOneModel<Omit<LoopOptions, 'messages'>>;

/** What the next model call is made with, after the run's options and `prepareStep` had their say. */
export interface PlannedStep {
  readonly model: Model;
  readonly system: string | undefined;
  readonly toolChoice: ToolChoice | undefined;
  /**
   * The tools offered: the catalogue's shown tools (the search tool among them), then the deferred ones a
   * search loaded, filtered by the step's active tools.
   */
  readonly tools: readonly ToolDeclaration[];
  /** For a native tool search: the deferred tools not loaded yet that the plan allows; absent without search. */
  readonly deferredTools: DeferredTools | undefined;
  readonly hostedTools: readonly HostedTool[] | undefined;
  /** The tools the step's plan allows; `undefined`: every catalogue tool (deferred ones once loaded). */
  readonly active: ReadonlySet<string> | undefined;
  /** Plain data for events, the journal and a paused run; `undefined` when the run plans nothing per step. */
  readonly plan: StepPlan | undefined;
}

/**
 * Plans the step for `turn`: asks `prepareStep` (awaited only when it returns a promise) and checks what
 * it returns, throwing {@link InvalidLoopOptionsError} for settings no provider could be sent.
 */
export function planStep(state: LoopState, options: Options, turn: number): PlannedStep | Promise<PlannedStep> {
  const prepare = options.prepareStep;
  if (prepare === undefined) return resolveStep(state, options, turn, undefined);
  const settings = prepare({
    runId: state.runId,
    turn,
    messages: [...state.messages],
    turns: [...state.turns],
    usage: state.usage,
    catalogue: options.catalogue,
  });
  if (isPromiseLike(settings))
    return Promise.resolve(settings).then((ready) => resolveStep(state, options, turn, ready));
  return resolveStep(state, options, turn, settings);
}

function resolveStep(
  state: LoopState,
  options: Options,
  turn: number,
  settings: StepSettings | undefined,
): PlannedStep {
  const field = 'prepareStep';
  if (settings !== undefined && (settings === null || typeof settings !== 'object')) {
    throw new InvalidLoopOptionsError(
      field,
      `it returned ${String(settings)}; return an object of step settings, or nothing.`,
    );
  }
  const model = settings?.model ?? options.model;
  if (settings?.model !== undefined) checkModel(settings.model);
  const system = settings?.system ?? options.system;
  if (settings?.system !== undefined && typeof settings.system !== 'string') {
    throw new InvalidLoopOptionsError(`${field}.system`, 'the system text must be a string.');
  }
  const activeNames = settings?.activeTools ?? options.activeTools;
  const active =
    activeNames === undefined
      ? undefined
      : activeSet(
          options.catalogue,
          activeNames,
          settings?.activeTools === undefined ? 'activeTools' : `${field}.activeTools`,
        );
  const { tools, deferredTools } = offeredTools(options.catalogue, state.loadedTools, active);
  const hostedTools = settings?.hostedTools ?? options.hostedTools;
  const toolChoice = settings?.toolChoice ?? options.toolChoice;
  if (toolChoice !== undefined) {
    checkToolChoice(
      toolChoice,
      tools,
      hostedTools,
      settings?.toolChoice === undefined ? 'toolChoice' : `${field}.toolChoice`,
    );
  }
  const planned = options.prepareStep !== undefined || options.activeTools !== undefined;
  const plan: StepPlan | undefined = planned
    ? {
        turn,
        ...(active === undefined ? {} : { activeTools: planNames(options.catalogue, active) }),
        ...(toolChoice === undefined ? {} : { toolChoice }),
        model: `${model.provider}:${model.modelId}`,
        ...(settings?.system === undefined ? {} : { systemChanged: true as const }),
        ...(hostedTools === undefined || hostedTools.length === 0
          ? {}
          : { hostedTools: hostedTools.map((tool) => tool.kind) }),
      }
    : undefined;
  return { model, system, toolChoice, tools, deferredTools, hostedTools, active, plan };
}

/**
 * What a step offers: the shown tools and those a search loaded (deferral), then only those the plan allows
 * (`active`). A deferred tool the plan names stays behind the search until a search loads it; the native
 * search is offered the deferred tools the plan allows, and nothing when the plan leaves the search out.
 */
export function offeredTools(
  catalogue: Catalogue,
  loaded: LoadedTools | undefined,
  active: ReadonlySet<string> | undefined,
): { tools: readonly ToolDeclaration[]; deferredTools: DeferredTools | undefined } {
  const all = loaded?.requestTools() ?? catalogue.declarations;
  const deferred = loaded?.deferredTools();
  if (active === undefined) return { tools: all, deferredTools: deferred };
  return {
    tools: activeDeclarations(all, active),
    deferredTools:
      deferred === undefined || !active.has(deferred.searchTool) ? undefined : activeDeferredTools(deferred, active),
  };
}

/** The plan's active tools in catalogue order (the registered tools, then the search tool). */
function planNames(catalogue: Catalogue, active: ReadonlySet<string>): string[] {
  const names = catalogue.names.filter((name) => active.has(name));
  const search = catalogue.toolSearch?.name;
  return search !== undefined && active.has(search) ? [...names, search] : names;
}

/** The named tools, all of which must be in the catalogue: a typo would silently hide a tool. */
export function activeSet(catalogue: Catalogue, names: readonly string[], field: string): ReadonlySet<string> {
  if (!Array.isArray(names)) {
    throw new InvalidLoopOptionsError(field, 'give an array of catalogue tool names.');
  }
  const unknown = names.filter((name) => typeof name !== 'string' || catalogue.get(name) === undefined);
  if (unknown.length > 0) {
    throw new InvalidLoopOptionsError(
      field,
      `${unknown.map((name) => JSON.stringify(String(name)).slice(0, 82)).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in the catalogue; name catalogue tools only (${catalogue.names.slice(0, 20).join(', ')}${catalogue.names.length > 20 ? ', …' : ''}).`,
    );
  }
  return new Set(names);
}

function checkToolChoice(
  choice: ToolChoice,
  tools: readonly ToolDeclaration[],
  hosted: readonly HostedTool[] | undefined,
  field: string,
): void {
  if (choice === 'auto' || choice === 'none') return;
  if (choice === 'required') {
    if (tools.length === 0 && (hosted === undefined || hosted.length === 0)) {
      throw new InvalidLoopOptionsError(
        field,
        '"required" with no tool offered at this step; offer a tool or use "auto".',
      );
    }
    return;
  }
  if (typeof choice !== 'object' || choice === null || choice.type !== 'tool' || typeof choice.name !== 'string') {
    throw new InvalidLoopOptionsError(field, 'use "auto", "none", "required" or { type: "tool", name }.');
  }
  if (!tools.some((tool) => tool.name === choice.name)) {
    throw new InvalidLoopOptionsError(
      field,
      `it names "${choice.name.slice(0, 80)}", which is not offered at this step (left out of the active tools, or a deferred tool no search has loaded yet); offer it or choose another.`,
    );
  }
}

function checkModel(model: Model): void {
  if (!isModel(model)) {
    throw new InvalidLoopOptionsError(
      'prepareStep.model',
      'give a model built by an adapter (createModel, createAnthropicModel…).',
    );
  }
}
