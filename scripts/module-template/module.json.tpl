{ "kind": "feature", "dependsOn": ["database", "idempotency", "validation"] }
