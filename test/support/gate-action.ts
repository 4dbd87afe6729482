import type { AnnotationProperties } from '@actions/core';
import type { GateCore } from '../../actions/gate/run.js';
import { RecordingCore } from './runner.js';

/** A recording core that also keeps the gate's error annotations. */
export class GateRecordingCore extends RecordingCore implements GateCore {
  readonly annotations: { message: string; properties: AnnotationProperties }[] = [];
  error = (message: string | Error, properties: AnnotationProperties = {}) => void this.annotations.push({ message: String(message), properties });
}

/** Code points, counted without the code under test: what GitHub counts against a comment's 65,536 characters. */
export const characters = (text: string): number => [...text].length;
