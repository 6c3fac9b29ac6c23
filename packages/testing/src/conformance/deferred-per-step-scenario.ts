import { type Catalogue, createSession, type Message, type PrepareStep, type Session } from '@toolcircuit/core';
import { createToolSearchCatalogue } from './tool-search-catalogue.js';

/** One call the model makes in the deferred per-step scenario, and what must become of it. */
export interface DeferredPerStepCall {
  readonly name: string;
  readonly input: { readonly [key: string]: string | number };
  /** `executed`, or the refusal reason the executor must give. */
  readonly outcome: 'executed' | 'tool_not_loaded' | 'inactive_tool';
}

/** The pieces of {@link createDeferredPerStepScenario}: each adapter's test plays it over its wire. */
export interface DeferredPerStepScenario {
  /** {@link createToolSearchCatalogue}: `current_time` shown, three deferred tools, the search tool. */
  readonly catalogue: Catalogue;
  readonly session: Session;
  readonly messages: readonly Message[];
  /** Step 1: no restriction. Steps 2 and 3: only the search, the weather forecast and `pay_person`. */
  readonly prepareStep: PrepareStep;
  /** Step 1's calls: two searches, loading `get_weather_forecast` and `list_files`. */
  readonly searches: readonly DeferredPerStepCall[];
  /**
   * Step 2's calls: (a) the loaded forecast the plan allows, run; (b) `pay_person`, which the plan allows but
   * no search loaded, refused `tool_not_loaded`; (c) `list_files`, loaded but left out by the plan, refused
   * `inactive_tool`. Step 3 answers in text.
   */
  readonly calls: readonly DeferredPerStepCall[];
  readonly answer: string;
  /** The tools each of the three requests must offer, in order (by neutral name). */
  readonly offered: readonly (readonly string[])[];
}

/**
 * Deferral and per-step control together, shared by the adapters' wire tests: what a step offers is the
 * shown tools, the search tool and the loaded tools, filtered by the step's active tools; a call outside
 * that offer is `tool_not_loaded` when a search would make it callable, `inactive_tool` when the plan
 * excludes it.
 */
export function createDeferredPerStepScenario(): DeferredPerStepScenario {
  const active = ['tool_search', 'get_weather_forecast', 'pay_person'];
  return {
    catalogue: createToolSearchCatalogue(),
    session: createSession({ id: 'deferred-per-step', humanId: 'ana', rights: [] }),
    messages: [{ role: 'user', content: 'What will the weather be in Lyon?' }],
    prepareStep: ({ turn }) => (turn === 1 ? undefined : { activeTools: active }),
    searches: [
      { name: 'tool_search', input: { query: 'weather forecast', limit: 1 }, outcome: 'executed' },
      { name: 'tool_search', input: { query: 'list files', limit: 1 }, outcome: 'executed' },
    ],
    calls: [
      { name: 'get_weather_forecast', input: { city: 'Lyon' }, outcome: 'executed' },
      { name: 'pay_person', input: { city: 'Lyon' }, outcome: 'tool_not_loaded' },
      { name: 'list_files', input: { city: 'Lyon' }, outcome: 'inactive_tool' },
    ],
    answer: 'Sunny in Lyon.',
    offered: [
      ['current_time', 'tool_search'],
      ['tool_search', 'get_weather_forecast'],
      ['tool_search', 'get_weather_forecast'],
    ],
  };
}
