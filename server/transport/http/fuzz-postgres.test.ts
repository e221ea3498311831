import { describe } from 'vitest';
import { fuzzSuite } from '../../testing/fuzz-suite.js';

describe('fuzzing the API and the socket on PostgreSQL', () => fuzzSuite('postgres', 20261124));
