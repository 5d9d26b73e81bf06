/** TypeBox schemas of the alert routes (docs/api/stream-and-alerts.md, "Alerts"). */
import { Type } from '@sinclair/typebox';
import { CONDITION_TYPES, MAX_COOLDOWN_SECONDS } from '../../pricing/alert-rules.ts';
import { Nullable, StringEnum, Timestamp } from './common.ts';

export const Condition = Type.Object(
  {
    type: StringEnum(CONDITION_TYPES, 'What to watch on the best ask / best bid / spread.'),
    value: Type.Integer({
      minimum: 1,
      description: 'Integer USD cents (ask_*/bid_*) or basis points (spread_below_bps, move_bps).',
    }),
  },
  { additionalProperties: false },
);

export const CreateAlertBody = Type.Object(
  {
    marketHashName: Type.String({ minLength: 1, maxLength: 200 }),
    condition: Condition,
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'http(s) URL receiving the signed POSTs; private addresses are refused.',
    }),
    markets: Type.Optional(
      Type.Array(Type.String(), {
        minItems: 1,
        maxItems: 20,
        description: "Only these markets' quotes count (default all).",
      }),
    ),
    cooldownSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_COOLDOWN_SECONDS,
        description: 'No new firing within this many seconds of the last (default 60).',
      }),
    ),
  },
  { additionalProperties: false },
);

const alertFields = {
  id: Type.String(),
  marketHashName: Type.String(),
  canonicalItemId: Type.String(),
  condition: Condition,
  url: Type.String(),
  markets: Nullable(Type.Array(Type.String())),
  cooldownSeconds: Type.Integer(),
  createdAt: Timestamp(),
  lastFiredAt: Nullable(Timestamp()),
};

export const Alert = Type.Object(alertFields);

export const CreatedAlert = Type.Object({
  ...alertFields,
  secret: Type.String({ description: 'The signing secret; shown only in this answer.' }),
});

export const AlertList = Type.Object({ alerts: Type.Array(Alert) });

export const AlertParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const DeliveriesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

const Attempt = Type.Object({
  at: Timestamp(),
  httpStatus: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
});

export const DeliveryList = Type.Object({
  alertId: Type.String(),
  deliveries: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The event id (X-Pricing-Event-Id).' }),
      status: StringEnum(['pending', 'delivered', 'failed'] as const),
      createdAt: Timestamp(),
      nextAttemptAt: Nullable(Timestamp()),
      attempts: Type.Array(Attempt),
    }),
  ),
});
